import { describe, expect, it } from 'vitest';
import { youtubeSearchUrl } from './youtube-search';

describe('youtubeSearchUrl', () => {
  it.each([
    ['Brushing', 'https://www.youtube.com/results?search_query=Brushing'],
    [
      "Children's Teeth & Gums",
      "https://www.youtube.com/results?search_query=Children's%20Teeth%20%26%20Gums",
    ],
    ['X-rays: safe? #1', 'https://www.youtube.com/results?search_query=X-rays%3A%20safe%3F%20%231'],
  ])('searches for %j', (title, url) => {
    expect(youtubeSearchUrl(title)).toBe(url);
  });
});
