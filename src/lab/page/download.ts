/** Bytes received so far and the total, when the server said it (`Content-Length`). */
export interface DownloadProgress {
  readonly loaded: number;
  readonly total: number | null;
}

/**
 * Fetches a file while reporting progress, for the runtime download the reader waits on.
 * `fetch` has no progress events, so the body stream is read chunk by chunk.
 */
export async function downloadWithProgress(url: string, onProgress: (p: DownloadProgress) => void): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`Could not load ${url}: HTTP ${response.status}`);
  const header = Number(response.headers.get('content-length'));
  const total = Number.isFinite(header) && header > 0 ? header : null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}
