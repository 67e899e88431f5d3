/**
 * The HTTP interface: the API app, key authentication (reused by the HTTP MCP endpoint) and the error
 * table.
 */
export { createHttpApp, httpRoutes, type HttpApp, type HttpAppOptions } from './app.js';
export {
  assertLocalRequest,
  authenticateRequest,
  isLoopbackHost,
  requireKey,
  resolveAuthMode,
  type AuthMode,
  type AuthOptions,
  type AuthVariables,
} from './auth.js';
export { answerClientErrors, type ClientErrorSource } from './answer-client-errors.js';
export { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './body.js';
export { HTTP_STATUS, HttpError, httpErrorResponse, toHttpError, type HttpErrorBody, type InternalErrorLogger } from './error-mapping.js';
export { buildOpenApiDocument } from './openapi.js';
export { assertTenantScopes, type ApiKeyInfo, type CreatedApiKey, type Principal } from '../../core/api-keys.js';
export { ApiKeys } from './api-keys.js';
