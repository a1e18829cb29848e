import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isToolshedError, WorkerJobError } from '@toolshed/plugin-sdk';
import { invoke } from '@toolshed/plugin-sdk/testing';
import exifViewer, { imageRefusal } from './index.js';
import { EXAMPLE_PNG } from './examples.data.js';
import { fixture } from './test-helpers.js';

describe('exif-viewer manifest', () => {
  it('replays its examples exactly, and they fit the response schemas', async () => {
    for (const [name, operation] of Object.entries(exifViewer.operations)) {
      // invoke() checks each answer against the operation's response schema, as the host does.
      for (const example of operation.examples) assert.deepEqual(await invoke(exifViewer, name, example.body), example.response);
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
