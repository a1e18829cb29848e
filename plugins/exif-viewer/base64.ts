/**
 * Strict Base64 → bytes. Buffer.from skips characters outside the alphabet silently, which would
 * turn a damaged upload into a different file; here they are refused. A data: URL prefix
 * (`data:image/png;base64,`) is accepted because that is how browsers hand files over.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

const dataUrl = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/i;
const shape = /^[A-Za-z0-9+/\-_]*={0,2}$/;

export function decodeBase64(input: string): Buffer {
  const compact = input.replace(dataUrl, '').replace(/[\t\n\f\r ]+/g, '');
  if (!shape.test(compact)) throw new UnprocessableError('invalid_base64', 'dataBase64 contains characters outside the Base64 alphabets');
  const data = compact.replace(/=+$/, '');
  const padding = compact.length - data.length;
  if (data.length % 4 === 1 || (padding > 0 && (data.length + padding) % 4 !== 0)) {
    throw new UnprocessableError('invalid_base64', 'dataBase64 is not a whole number of Base64 groups');
  }
  return Buffer.from(data, 'base64'); // Node decodes both alphabets
}
