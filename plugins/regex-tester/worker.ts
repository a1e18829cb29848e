/** What the shared worker pool runs for a regex job: the match, or the job's 422. */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { runRegex, type RegexJob, type RegexResult } from './match.js';

export function testRegex(job: RegexJob): RegexResult {
  const outcome = runRegex(job);
  if (!outcome.ok) throw new UnprocessableError(outcome.code, outcome.message);
  return outcome.result;
}
