import { useState } from 'react';
import { Box, Center, Image, Loader } from '@mantine/core';

export interface LoadingImageProps {
  src: string;
  alt: string;
  /** Height reserved while the image loads, in pixels. */
  height: number;
}

/** An image with a spinner in its place until it has loaded (docs/product/general.md#lists: lists
 *  show a spinner until loaded). */
export function LoadingImage({ src, alt, height }: LoadingImageProps) {
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loaded = loadedSrc === src;
  return (
    <Box pos="relative" mih={loaded ? undefined : height}>
      {!loaded && (
        <Center pos="absolute" inset={0} role="status" aria-label={`Loading ${alt}`}>
          <Loader size="sm" />
        </Center>
      )}
      <Image
        src={src}
        alt={alt}
        fit="contain"
        mah={height}
        w="auto"
        maw="100%"
        style={loaded ? undefined : { opacity: 0 }}
        onLoad={() => {
          setLoadedSrc(src);
        }}
      />
    </Box>
  );
}
