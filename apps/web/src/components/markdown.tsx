import type { ComponentPropsWithoutRef, MouseEvent, ReactNode } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Typography } from '@mantine/core';
import { isExternalMarkdownUrl, safeMarkdownUrl } from './markdown-url';

type LinkProps = ComponentPropsWithoutRef<'a'> & ExtraProps;

function ignoreClick(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
}

function MarkdownLink({ node: _node, href, children, ...rest }: LinkProps) {
  // The URL policy removed a forbidden href: keep the text as a link that goes nowhere.
  if (href === undefined) {
    return (
      <a {...rest} href="#" onClick={ignoreClick}>
        {children}
      </a>
    );
  }
  const external = isExternalMarkdownUrl(href);
  return (
    <a
      {...rest}
      href={href}
      target={external ? '_blank' : undefined}
      rel={external ? 'noopener noreferrer' : undefined}
    >
      {children}
    </a>
  );
}

type HeadingTag = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
const headingTags: readonly HeadingTag[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

function headingTag(level: number): HeadingTag {
  return headingTags[Math.min(level, headingTags.length) - 1] ?? 'h6';
}

const headingComponentsByOffset = new Map<number, Components>();

/** Heading components that push markdown headings `offset` levels down, so they sit below the
 *  heading of the page or dialog; built once per offset so React keeps them across renders. */
function shiftedHeadings(offset: number): Components {
  const cached = headingComponentsByOffset.get(offset);
  if (cached !== undefined) return cached;
  const components: Components = {};
  headingTags.forEach((tag, index) => {
    const Tag = headingTag(index + 1 + offset);
    components[tag] = function ShiftedHeading({
      node: _node,
      ...props
    }: ComponentPropsWithoutRef<HeadingTag> & ExtraProps) {
      return <Tag {...props} />;
    };
  });
  headingComponentsByOffset.set(offset, components);
  return components;
}

export interface MarkdownProps {
  children: string;
  /** How many levels to push headings down: 2 inside a dialog, whose title is an h2. */
  headingOffset?: number;
}

/** Markdown from our content: GFM, raw HTML skipped, links limited by the URL policy. */
export function Markdown({ children, headingOffset = 0 }: MarkdownProps): ReactNode {
  return (
    <Typography>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={safeMarkdownUrl}
        components={{ ...shiftedHeadings(headingOffset), a: MarkdownLink }}
      >
        {children}
      </ReactMarkdown>
    </Typography>
  );
}
