import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, isToolshedError, operationContract, WorkerJobError } from '@toolshed/plugin-sdk';
import exifViewer, { imageRefusal } from './index.js';
import { EXAMPLE_PNG } from './examples.data.js';
import { fixture } from './test-helpers.js';

describe('exif-viewer manifest', () => {
  it('replays its examples exactly, and they fit the response schemas', async () => {
    for (const operation of Object.keys(exifViewer.operations).map((name) => operationContract(exifViewer, name))) {
      for (const example of operation.definition.examples) {
        const answer = await invoke(exifViewer, operation.name, example.body);
        assert.deepEqual(answer, example.response);
        assert.deepEqual(operation.responseProblems(answer), []);
      }
    }
  });

  it('uses the committed fixture as its example', () => {
    assert.equal(EXAMPLE_PNG, fixture('example.png').toString('base64'));
  });

  it('turns a worker timeout, abort or crash into 422 image_too_complex and leaves other failures alone', () => {
    for (const reason of ['timeout', 'aborted', 'crashed'] as const) {
      const refusal = imageRefusal(new WorkerJobError(reason));
      assert.ok(isToolshedError(refusal) && refusal.status === 422 && refusal.code === 'image_too_complex', reason);
    }
    const failed = new WorkerJobError('failed', 'TypeError');
    assert.equal(imageRefusal(failed), failed);
    const bug = new TypeError('x');
    assert.equal(imageRefusal(bug), bug);
  });
});
