/** `npm run keygen [name]`: prints a new API key and the line to paste into the configuration. */
import { digestApiKey, generateApiKey } from './api-keys.js';

const name = process.argv[2] ?? 'client';
if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
  process.stderr.write('The key name may hold letters, digits, ".", "_" and "-" (at most 64).\n');
  process.exit(2);
}
const key = generateApiKey();
process.stdout.write(
  `API key (give it to the client once; it is not stored anywhere):\n  ${key}\n\n` +
    `Add this entry under auth.apiKeys in your configuration file:\n  - { name: ${name}, sha256: "${digestApiKey(key)}" }\n`,
);
