import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

function renderMarkdown(markdown: string, headingOffset?: number) {
  return render(
    <MantineProvider>
      <Markdown headingOffset={headingOffset}>{markdown}</Markdown>
    </MantineProvider>,
  );
}

describe('Markdown', () => {
  it.each([
    ['[x](javascript:alert(1))'],
    ['[x](JaVaScRiPt:alert(1))'],
    ['[x](&#106;avascript:alert(1))'],
    ['[x](javascript&#58;alert(1))'],
    ['[x](&#x6A;avascript&colon;alert(1))'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)'],
    ['[x](vbscript:msgbox(1))'],
    ['[x](<java\tscript:alert(1)>)'],
    ['[x]: javascript:alert(1)\n\n[y][x]'],
    ['<javascript:alert(1)>'],
  ])('turns %j into a link that goes nowhere', async (markdown) => {
    renderMarkdown(markdown);
    const link = screen.getByRole('link');
    expect(link).toHaveAttribute('href', '#');
    expect(link.getAttribute('href')).not.toMatch(/script|data/i);

    // Following it changes nothing: the default action is cancelled.
    const before = window.location.href;
    await userEvent.click(link);
    expect(window.location.href).toBe(before);
  });

  it('keeps allowed links and opens web addresses in a new tab without an opener', () => {
    renderMarkdown(
      '[site](https://example.com) [mail](mailto:care@example.com) [call](tel:+12015550123) ' +
        '[page](/oral-photo) [part](#part) [cdn](//cdn.example.com)',
    );
    const site = screen.getByRole('link', { name: 'site' });
    expect(site).toHaveAttribute('href', 'https://example.com');
    expect(site).toHaveAttribute('target', '_blank');
    expect(site).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'mail' })).toHaveAttribute(
      'href',
      'mailto:care@example.com',
    );
    expect(screen.getByRole('link', { name: 'call' })).toHaveAttribute('href', 'tel:+12015550123');
    expect(screen.getByRole('link', { name: 'page' })).toHaveAttribute('href', '/oral-photo');
    expect(screen.getByRole('link', { name: 'page' })).not.toHaveAttribute('target');
    expect(screen.getByRole('link', { name: 'part' })).toHaveAttribute('href', '#part');
    expect(screen.getByRole('link', { name: 'cdn' })).toHaveAttribute('target', '_blank');
  });

  it('skips raw HTML', () => {
    const { container } = renderMarkdown(
      'Before <script>alert(1)</script><img src=x onerror="alert(1)"> ' +
        '<a href="javascript:alert(1)">raw</a> after\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(container.querySelector('script, img, iframe, a')).toBeNull();
    expect(container).toHaveTextContent('Before');
  });

  it('drops image sources with a forbidden scheme', () => {
    const { container } = renderMarkdown(
      '![ok](/static/media/brush.png) ![bad](javascript:alert(1))',
    );
    const images = container.querySelectorAll('img');
    expect(images[0]).toHaveAttribute('src', '/static/media/brush.png');
    expect(images[1]).not.toHaveAttribute('src');
  });

  it('renders GitHub-flavoured tables and pushes headings down by the offset', () => {
    renderMarkdown('# Title\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |', 1);
    expect(screen.getByRole('heading', { name: 'Title', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Part', level: 3 })).toBeInTheDocument();
    expect(screen.getByRole('table')).toBeInTheDocument();
  });
});
