/** The parsed JSON log lines whose message is `msg`, from what a service or a command wrote (its chunks, or one text). */
export function logLinesWith(written: string | readonly string[], msg: string): Record<string, unknown>[] {
  const text = typeof written === 'string' ? written : written.join('');
  return text
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
