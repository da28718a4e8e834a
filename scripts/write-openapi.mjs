// Writes openapi.json at the package root from the built `channel-webhooks/openapi` entry, indented
// with tabs: as readable as spaces, and a quarter smaller in the package (56 against 75 kB).
import { writeFileSync } from 'node:fs';
import { createOpenApiDocument } from '../dist/openapi.js';

writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(createOpenApiDocument(), null, '\t')}\n`);
