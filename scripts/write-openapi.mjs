// Writes openapi.json at the package root from the built `channel-webhooks/openapi` entry.
import { writeFileSync } from 'node:fs';
import { createOpenApiDocument } from '../dist/openapi.js';

writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
