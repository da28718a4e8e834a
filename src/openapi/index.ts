export { createOpenApiDocument } from './create-openapi-document.js';
export type { OpenApiDocument, OpenApiOptions } from './create-openapi-document.js';
export { createManagementOpenApiDocument } from './create-management-openapi-document.js';
export type { ManagementOpenApiOptions } from './create-management-openapi-document.js';
