import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** JSON answers and problems; files, calendars and the built app are left alone. */
export const compressedTypes = /^application\/(?:problem\+)?json(?:;|$)/;

/** Answers smaller than this go as they are: compressing them saves less than its headers. */
export const compressionThresholdBytes = 1024;

/** Answers up to this size are compressed in one call on the event loop (about 60 µs for a page
 *  of 30 photos); larger ones through zlib's threads. The plugin's default on two cores is 8 kB,
 *  and its stream path cost a page a fifth of its requests per second. */
export const inlineCompressionMaxBytes = 64 * 1024;

/**
 * API answers in JSON, compressed when the client accepts Brotli or gzip and the answer is 1 kB
 * or more (docs/decisions/api-compression.md). The fastest level of each: most of a page is signed
 * links, random characters that no level shrinks, so quality 4 (the plugin's default) made a page
 * 5 % smaller at four times the CPU. The built app's files are compressed at build time and
 * arrive here already encoded, so they pass through. Request bodies are never inflated: a small
 * compressed body could expand past the body limit.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      customTypes: compressedTypes,
      threshold: compressionThresholdBytes,
      syncThreshold: inlineCompressionMaxBytes,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
      zlibOptions: { level: 1 },
      globalDecompression: false,
    });
  },
  { name: 'compression' },
);
