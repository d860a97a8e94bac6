import { useQuery } from '@tanstack/react-query';
import { markdownDocumentQuery } from '../lib/markdown-document';
import { Markdown } from './markdown';
import { PageSpinner } from './page-spinner';

export interface MarkdownDocumentProps {
  /** The record's `content_markdown` address; nothing is fetched until it is known. */
  url: string | undefined;
  headingOffset?: number;
}

/**
 * A markdown body fetched after its record (docs/product/knowledge.md#article): a spinner while it
 * loads, and nothing when it fails (markdown fetch failures show no message:
 * docs/product/knowledge.md#loading-and-failures; docs/decisions/knowledge-screens.md).
 */
export function MarkdownDocument({ url, headingOffset }: MarkdownDocumentProps) {
  const document = useQuery({ ...markdownDocumentQuery(url ?? ''), enabled: url !== undefined });
  if (document.isError) return null;
  if (document.isPending) return <PageSpinner />;
  return <Markdown headingOffset={headingOffset}>{document.data}</Markdown>;
}
