/**
 * Inputs of the kinds identify must name, written for these tests to look like what people paste:
 * tokens from headers, values from log lines and config files. Each with the kind identify should
 * name first. Encoded samples are built from their plain text here, so the plain text is visible.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string, separator = '') => [...Buffer.from(text)].map((byte) => byte.toString(16).padStart(2, '0')).join(separator);
const binary = (text: string) => [...Buffer.from(text)].map((byte) => byte.toString(2).padStart(8, '0')).join(' ');
/** A compact JWT with an HS256 header and a made-up signature. */
export const jwtOf = (payload: object, signature = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') =>
  `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.${signature}`;

export const corpus: readonly (readonly [input: string, kind: string])[] = [
  // JSON Web Tokens, bare and from an Authorization header.
  [jwtOf({ sub: 'user-1842', iat: 1710504000, exp: 1710507600 }), 'jwt'],
  [`Bearer ${jwtOf({ sub: 'svc-billing', scope: 'invoices:read', exp: 1893456000 })}`, 'jwt'],
  [`bearer ${jwtOf({ iss: 'https://auth.example.org', aud: 'api', sub: '7' })}`, 'jwt'],
  [jwtOf({ email: 'ada@example.com', roles: ['admin', 'ops'] }, 'c2lnbmF0dXJlLXBsYWNlaG9sZGVy'), 'jwt'],
  [`${b64url('{"alg":"none"}')}.${b64url('{"sub":"guest"}')}.`, 'jwt'],
  // Base64 (standard alphabet): Basic auth, a config value, a secret from a manifest.
  [b64('admin:correct horse battery staple'), 'base64'],
  [b64('Hello, World! This is a test message.'), 'base64'],
  [b64('{"db":"postgres","host":"10.0.4.12","port":5432}'), 'base64'],
  [b64('2024-03-15 10:22:01 ERROR payment-service: timeout after 30s'), 'base64'],
  [b64('deploy-token: glpat-xxxxxxxxxxxxxxxx'), 'base64'],
  [b64('The quick brown fox jumps over the lazy dog'), 'base64'],
  // Base64url (the URL-safe alphabet, no padding).
  [b64url('which one? >>> this one <<<'), 'base64url'],
  [b64url('state=ok?? redirect>>/home'), 'base64url'],
  [b64url('session ~~ 42 ?? yes'), 'base64url'],
  // Hex and binary bytes.
  [hex('Hello World'), 'hex-bytes'],
  [hex('GET /index.html', ' '), 'hex-bytes'],
  [hex('toolshed', ':'), 'hex-bytes'],
  [hex('café au lait').toUpperCase(), 'hex-bytes'],
  [binary('Hi!'), 'binary-bytes'],
  [binary('OK'), 'binary-bytes'],
  [binary('yes'), 'binary-bytes'],
  // Percent-encoding.
  ['name%3DJohn%20Doe%26city%3DLondon', 'percent-encoding'],
  ['caf%C3%A9%20au%20lait', 'percent-encoding'],
  ['redirect_uri%3Dhttps%253A%252F%252Fapp.example.com%252Fcb', 'percent-encoding'],
  ['%7B%22id%22%3A7%2C%22ok%22%3Atrue%7D', 'percent-encoding'],
  // URLs.
  ['https://api.example.com/v2/orders?status=open&page=3', 'url'],
  ['http://localhost:8080/healthz', 'url'],
  ['https://example.org/search?q=caf%C3%A9&lang=fr#results', 'url'],
  ['ftp://files.example.net/pub/releases/v1.2.3.tar.gz', 'url'],
  // JSON.
  ['{"level":"error","msg":"connection refused","port":6379}', 'json'],
  ['[1, 2, 3, 5, 8, 13]', 'json'],
  ['{\n  "name": "toolshed",\n  "version": "1.0.0",\n  "private": true\n}', 'json'],
  ['[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]', 'json'],
  // YAML.
  ['services:\n  web:\n    image: nginx:1.25\n    ports:\n      - "8080:80"\n', 'yaml'],
  ['apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  LOG_LEVEL: debug\n', 'yaml'],
  ['---\nserver:\n  port: 8080\n  host: 0.0.0.0\n', 'yaml'],
  ['- name: install packages\n  apt: name=nginx state=present\n- name: start nginx\n  service: name=nginx state=started\n', 'yaml'],
  // CSV.
  ['id,name,email\n1,Ada Lovelace,ada@example.com\n2,Alan Turing,alan@example.com\n', 'csv'],
  ['date,amount,currency\n2024-03-01,19.99,EUR\n2024-03-02,5.00,EUR', 'csv'],
  ['host,cpu,mem\nweb-1,0.42,512\nweb-2,0.37,498\n', 'csv'],
  // SQL.
  ['SELECT id, email FROM users WHERE created_at > NOW() - INTERVAL 7 DAY ORDER BY id', 'sql'],
  ['INSERT INTO orders (customer_id, total) VALUES (42, 99.50);', 'sql'],
  ['UPDATE accounts SET balance = balance - 100 WHERE id = 7;', 'sql'],
  ['select count(*) from events where type = \'login\'', 'sql'],
  ['CREATE TABLE sessions (id uuid PRIMARY KEY, user_id int NOT NULL, expires_at timestamptz);', 'sql'],
  // Cron expressions.
  ['*/5 * * * *', 'cron'],
  ['0 3 * * 1-5', 'cron'],
  ['30 2 1 * *', 'cron'],
  ['15 10 * * MON-FRI', 'cron'],
  ['@daily', 'cron'],
  // Unix timestamps in seconds, milliseconds, microseconds and nanoseconds.
  ['1710504000', 'unix-timestamp'],
  ['1699999999', 'unix-timestamp'],
  ['1710504000123', 'unix-timestamp'],
  ['1710504000123456', 'unix-timestamp'],
  ['1710504000123456789', 'unix-timestamp'],
  // ISO 8601 and RFC 2822 dates.
  ['2024-03-15T10:22:01Z', 'iso-8601-date'],
  ['2024-03-15T10:22:01.250+01:00', 'iso-8601-date'],
  ['2024-02-29', 'iso-8601-date'],
  ['Fri, 15 Mar 2024 12:00:00 +0000', 'rfc-2822-date'],
  ['Thu, 14 Mar 2024 08:15:30 -0500', 'rfc-2822-date'],
  ['1 Jan 2024 00:00:00 GMT', 'rfc-2822-date'],
  // IPv4 addresses and CIDR blocks.
  ['192.168.1.10', 'ipv4'],
  ['10.0.4.12', 'ipv4'],
  ['8.8.8.8', 'ipv4'],
  ['10.0.0.0/8', 'ipv4-cidr'],
  ['172.16.32.0/20', 'ipv4-cidr'],
  ['192.168.100.0/24', 'ipv4-cidr'],
  // CSS colours.
  ['#1e90ff', 'css-color'],
  ['#FFF', 'css-color'],
  ['rgb(255, 99, 71)', 'css-color'],
  ['hsl(120 50% 50%)', 'css-color'],
  ['rebeccapurple', 'css-color'],
  // UUIDs and ULIDs.
  ['f47ac10b-58cc-4372-a567-0e02b2c3d479', 'uuid'],
  ['018e4f6c-2a1b-7c3d-9e8f-0a1b2c3d4e5f', 'uuid'],
  ['{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}', 'uuid'],
  ['01HRZ8X5Q2J3K4M5N6P7R8S9T0', 'ulid'],
  ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid'],
  // Roman numerals.
  ['MCMXCIV', 'roman-numeral'],
  ['XLII', 'roman-numeral'],
  ['MMXXIV', 'roman-numeral'],
  // Prefixed numbers.
  ['0xDEADBEEF', 'hex-number'],
  ['0x7fffffff', 'hex-number'],
  ['0b1010_1010', 'binary-number'],
  ['0o755', 'octal-number'],
  // Regular expressions.
  ['^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', 'regex'],
  ['^\\d{3}-\\d{4}$', 'regex'],
  ['(?:\\d{1,3}\\.){3}\\d{1,3}', 'regex'],
];

/** Plain prose: identify must give none of these a candidate above 0.5. */
export const prose: readonly string[] = [
  'The meeting has been moved to Thursday afternoon; please bring the quarterly figures.',
  'Select the best option from the list below, then press continue.',
  'I think the deploy failed because the database was down, but I am not sure yet.',
  'Hello',
  'Thanks a lot, see you tomorrow!',
  'Roses are red,\nviolets are blue,\nsugar is sweet,\nand so are you.',
  'Note: the office is closed on Monday.\nReason: public holiday.',
];
