/** The video link beside each article (docs/product/knowledge.md#knowledge-list): a YouTube search
 *  for the article's title. */
export function youtubeSearchUrl(title: string): string {
  return `https://www.youtube.com/results?search_query=${encodeURIComponent(title)}`;
}
