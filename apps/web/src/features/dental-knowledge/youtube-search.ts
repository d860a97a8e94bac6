/** The video link beside each article (SPEC §2): a YouTube search for the article's title. */
export function youtubeSearchUrl(title: string): string {
  return `https://www.youtube.com/results?search_query=${encodeURIComponent(title)}`;
}
