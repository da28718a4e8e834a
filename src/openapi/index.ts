export { createOpenApiDocument } from './create-openapi-document.js';
export type { OpenApiDocument, OpenApiOptions } from './create-openapi-document.js';
