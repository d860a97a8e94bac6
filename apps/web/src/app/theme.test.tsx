import { render, screen } from '@testing-library/react';
import { Collapse, MantineProvider } from '@mantine/core';
import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { cssVariablesResolver, theme } from './theme';

/** Compares CSS regardless of formatting: no comments, no whitespace, one kind of quote. */
function normalise(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, '')
    .replace(/'/g, '"')
    .replace(/;}/g, '}');
}

// Read from disk: the test runner does not load stylesheets, not even as raw text.
const shippedVariables = readFileSync(`${import.meta.dirname}/theme-variables.css`, 'utf8');

describe('theme', () => {
  it('ships exactly the CSS variables MantineProvider would inject for it', () => {
    render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <div />
      </MantineProvider>,
    );
    const injected = document.querySelector('style[data-mantine-styles="true"]')?.textContent;
    expect(injected).toBeTruthy();
    // On failure, paste the injected CSS into theme-variables.css (then run prettier).
    expect(normalise(shippedVariables)).toBe(normalise(injected ?? ''));
  });

  it('opens a card at once, without sliding, for a patient whose system asks for less motion', () => {
    const reducedMotion = '(prefers-reduced-motion: reduce)';
    const matchMedia = window.matchMedia.bind(window);
    const asked = vi
      .spyOn(window, 'matchMedia')
      .mockImplementation((query) =>
        Object.assign(matchMedia(query), { matches: query === reducedMotion }),
      );
    const card = (expanded: boolean) => (
      <MantineProvider theme={theme}>
        <Collapse expanded={expanded}>Date: 2026-11-27</Collapse>
      </MantineProvider>
    );
    const { rerender } = render(card(false));
    rerender(card(true));
    expect(asked).toHaveBeenCalledWith(reducedMotion);
    expect(screen.getByText('Date: 2026-11-27').style.transition).toBe('');
  });
});
