/** `toolshed keys new <name>` (and `npm run keygen`): a new API key and the entry to configure. */
// The key format alone: kernel/http/index.js would load Koa and the HTTP stack, most of the command's time.
import { digestApiKey, generateApiKey } from '../kernel/http/api-keys.js';
import { UsageError } from './command.js';

/** What auth.apiKeys accepts as a key's name (the configuration schema's pattern). */
const keyName = /^[A-Za-z0-9._-]{1,64}$/;

/** The text to print for a new key named `name`: the key once, then its configuration entry. */
export function newKeyText(name: string): string {
  if (!keyName.test(name)) throw new UsageError('The key name may hold letters, digits, ".", "_" and "-" (at most 64).');
  const key = generateApiKey();
  return (
    `API key (give it to the client once; it is not stored anywhere):\n  ${key}\n\n` +
    `Add this entry under auth.apiKeys in your configuration file:\n  - { name: ${name}, sha256: "${digestApiKey(key)}" }\n`
  );
}
