/** The service's entry point: `node dist/service/main.js` (npm start), the same as `toolshed serve`. */
import { serve } from './serve.js';

process.exitCode = await serve(process.env, process.stderr);
