// `toolshed recipe run` and `toolshed identify` as an operator runs them (issue 40): their exact
// stdout, stderr and exit code, the same answers as over HTTP. bin/toolshed.js runs in a child
// process where the process is the subject (stdin, an exit code as the shell sees it); the other
// answers come from the runCli cli/main.ts runs, in this process (test/support/cli.ts).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { toolshed, toolshedInProcess } from './support/cli.js';
import { ISSUE_46_EXAMPLES, JWT_ANSWER, JWT_BASE64, JWT_LAYERS, SAVED } from './support/recipes.js';
import { tempFolder } from './support/temp-folder.js';

async function tempFile(name: string, text: string): Promise<string> {
  const file = path.join(tempFolder('toolshed-recipe-'), name);
  await writeFile(file, text);
  return file;
}

const threeSteps = JSON.stringify({ input: JWT_LAYERS, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });

describe('toolshed recipe run', () => {
  it('runs the issue\'s recipe from a file and from stdin, the answer on stdout', async () => {
    const expected = { code: 0, stdout: `${JSON.stringify({ result: JWT_ANSWER })}\n`, stderr: '' };
    assert.deepEqual(await toolshedInProcess(['recipe', 'run', await tempFile('jwt.json', threeSteps)]), expected);
    assert.deepEqual(await toolshed(['recipe', 'run', '-'], threeSteps), expected);
  });

  it('writes a recipe that does not fit on stderr and exits 1; a failing step names it', async () => {
    const unfit = await toolshed(['recipe', 'run', '-'], JSON.stringify({ input: 'x', steps: [{ operation: 'base64/decod' }] }));
    const details = [{ path: '/steps/0/operation', message: 'is not an operation; did you mean "base64/decode"?' }];
    assert.deepEqual(unfit, { code: 1, stdout: '', stderr: `${JSON.stringify({ error: { code: 'validation_failed', message: 'The recipe does not fit its operations', details } })}\n` });
    const failing = await toolshedInProcess(['recipe', 'run', '-'], JSON.stringify({ input: 'not base64!', steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] }));
    assert.equal(failing.code, 1);
    const { error } = JSON.parse(failing.stderr) as { error: { code: string; details: { path: string }[] } };
    assert.equal(error.code, 'invalid_base64');
    assert.equal(error.details[0]?.path, '/steps/0');
  });

  it('runs a saved recipe of the configuration with call, and exits 1 for a file it cannot read', async () => {
    const config = await tempFile('saved.yaml', JSON.stringify({ recipes: SAVED }));
    assert.deepEqual(await toolshedInProcess(['call', 'recipes/jwt-in-base64', JSON.stringify({ input: JWT_BASE64 }), '--config', config]), { code: 0, stdout: `${JSON.stringify(JWT_ANSWER)}\n`, stderr: '' });
    const missing = await toolshedInProcess(['recipe', 'run', '/nonexistent/recipe.json']);
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: 'toolshed: Cannot read the recipe file /nonexistent/recipe.json: ENOENT\n' });
  });
});

describe('toolshed config check', () => {
  it('names a broken saved recipe as the start would, and exits 1', async () => {
    const config = await tempFile('broken.yaml', JSON.stringify({ recipes: { 'peel-twice': { summary: 'x', steps: [{ operation: 'base64/decod' }] } } }));
    const expected = 'Invalid configuration:\n- /recipes/peel-twice/steps/0/operation: is not an operation; did you mean "base64/decode"?\n';
    assert.deepEqual(await toolshedInProcess(['config', 'check', config]), { code: 1, stdout: expected, stderr: '' });
  });
});

describe('toolshed identify', () => {
  it('names the issue\'s three layers from an argument and from stdin (its final line break left out)', async () => {
    for (const outcome of [await toolshedInProcess(['identify', JWT_LAYERS]), await toolshed(['identify', '-'], `${JWT_LAYERS}\n`)]) {
      assert.equal(outcome.code, 0, outcome.stderr);
      const [best] = (JSON.parse(outcome.stdout) as { candidates: { title: string; recipe: unknown; preview: unknown }[] }).candidates;
      assert.equal(best?.title, 'Percent-encoded text → Base64 → JSON Web Token');
      assert.deepEqual(best?.preview, JWT_ANSWER);
    }
  });

  it('answers issue 46\'s examples as they should be', async () => {
    for (const example of ISSUE_46_EXAMPLES) {
      const outcome = await toolshedInProcess(['identify', example.input]);
      assert.equal(outcome.code, 0, `${example.name}: ${outcome.stderr}`);
      const [best] = (JSON.parse(outcome.stdout) as { candidates: { kind: string; recipe: { steps: unknown[] }; preview: unknown }[] }).candidates;
      assert.deepEqual({ kind: best?.kind, recipe: best?.recipe, preview: best?.preview }, example.best, example.name);
    }
  });

  it('passes --depth and --limit, and a value out of range is the 400 of the API (exit 1)', async () => {
    const one = await toolshedInProcess(['identify', JWT_LAYERS, '--depth', '1', '--limit', '1']);
    const candidates = (JSON.parse(one.stdout) as { candidates: { recipe: { steps: unknown[] } }[] }).candidates;
    assert.deepEqual([candidates.length, candidates[0]?.recipe.steps.length], [1, 1]);
    const wrong = await toolshedInProcess(['identify', 'x', '--depth', '9']);
    assert.equal(wrong.code, 1);
    assert.deepEqual((JSON.parse(wrong.stderr) as { error: { details: { path: string }[] } }).error.details.map((detail) => detail.path), ['/depth']);
  });
});
