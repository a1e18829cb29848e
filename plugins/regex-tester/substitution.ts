/**
 * JavaScript's replacement patterns ($$, $&, $`, $', $1…$99, $<name>), as String.prototype.replace
 * applies them (ECMA-262 GetSubstitution). Done by hand so the output can be measured while it is
 * built: a short pattern can turn 10 MB into gigabytes.
 */

/** The parts of one match a replacement may refer to. */
export interface MatchParts {
  readonly matched: string;
  readonly position: number;
  readonly captures: readonly (string | undefined)[];
  readonly named: Readonly<Record<string, string | undefined>> | undefined;
}

/** The replacement text for one match of `subject`. */
export function substitute(template: string, subject: string, match: MatchParts): string {
  if (!template.includes('$')) return template;
  const count = match.captures.length;
  let result = '';
  let i = 0;
  while (i < template.length) {
    const char = template[i];
    const next = template[i + 1];
    if (char !== '$' || next === undefined) {
      result += char;
      i++;
      continue;
    }
    if (next === '$') {
      result += '$';
      i += 2;
    } else if (next === '&') {
      result += match.matched;
      i += 2;
    } else if (next === '`') {
      result += subject.slice(0, match.position);
      i += 2;
    } else if (next === "'") {
      result += subject.slice(Math.min(subject.length, match.position + match.matched.length));
      i += 2;
    } else if (next >= '0' && next <= '9') {
      const two = template.slice(i + 1, i + 3);
      const twoIndex = /^\d\d$/.test(two) ? Number(two) : 0;
      const oneIndex = Number(next);
      if (twoIndex >= 1 && twoIndex <= count) {
        result += match.captures[twoIndex - 1] ?? '';
        i += 3;
      } else if (oneIndex >= 1 && oneIndex <= count) {
        result += match.captures[oneIndex - 1] ?? '';
        i += 2;
      } else {
        result += '$';
        i++;
      }
    } else if (next === '<' && match.named !== undefined) {
      const close = template.indexOf('>', i + 2);
      if (close === -1) {
        result += '$';
        i++;
      } else {
        result += match.named[template.slice(i + 2, close)] ?? '';
        i = close + 1;
      }
    } else {
      result += '$';
      i++;
    }
  }
  return result;
}
