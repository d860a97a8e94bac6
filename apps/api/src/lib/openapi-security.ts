/** The OpenAPI `security` of an operation that needs a bearer access token: the `bearerAuth`
 *  scheme declared by plugins/openapi.ts. */
export const security: readonly { bearerAuth: readonly string[] }[] = [{ bearerAuth: [] }];
