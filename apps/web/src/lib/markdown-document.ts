import { queryOptions } from '@tanstack/react-query';
import { ApiError, unexpectedMessage, unreachableMessage } from './api-client';

/**
 * Fetches the markdown text a record's `content_markdown` points to. A separate client from the API
 * calls (docs/product/knowledge.md#knowledge-and-supplier-calls): plain text, and no credential of
 * any kind goes with it.
 */
export async function fetchMarkdown(url: string, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Accept: 'text/markdown' },
      credentials: 'omit',
      signal,
    });
  } catch {
    throw new ApiError(0, unreachableMessage);
  }
  if (!response.ok) throw new ApiError(response.status, unexpectedMessage);
  return response.text();
}

/** The document behind one markdown address; revalidated with its ETag by the browser. */
export function markdownDocumentQuery(url: string) {
  return queryOptions({
    queryKey: ['markdown-document', url],
    queryFn: ({ signal }) => fetchMarkdown(url, signal),
  });
}
