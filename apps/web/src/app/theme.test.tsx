import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
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
});
