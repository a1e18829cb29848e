/**
 * The plugin's configuration section `currency`: where the ECB reference rates come from and how
 * often they are fetched again. config/default.yaml carries the same defaults.
 */
import { Type, type Static } from '@toolshed/plugin-sdk';

/** The ECB's daily reference-rate file (updated around 16:00 CET on TARGET working days). */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** Schema of the `currency` section. */
export const CurrencyConfigSchema = Type.Object(
  {
    ratesUrl: Type.String({
      pattern: '^https?://[^\\s/?#]+',
      maxLength: 2048,
      default: ECB_DAILY_URL,
      description: 'http(s) URL of an ECB reference-rate XML file; redirects are not followed',
    }),
    refreshMinutes: Type.Integer({
      minimum: 1,
      maximum: 10080,
      default: 60,
      description: 'Rates older than this are fetched again (in the background; the old set answers meanwhile)',
    }),
    ratesFile: Type.String({
      maxLength: 4096,
      default: '',
      description: 'A local ECB XML file (absolute, or relative to the working directory) read instead of ratesUrl; empty: use ratesUrl',
    }),
    timeoutMs: Type.Integer({ minimum: 1, maximum: 60000, default: 10000, description: 'Budget of one fetch of the rates, body included' }),
  },
  { additionalProperties: false },
);

/** The `currency` section, validated and with its defaults filled. */
export type CurrencyConfig = Static<typeof CurrencyConfigSchema>;
