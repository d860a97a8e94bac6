import { vi } from 'vitest';

/**
 * An XMLHttpRequest that sends through `fetch`, so the handlers of `stubFetch` answer uploads
 * too. The whole body counts as sent in one progress event before the request goes out.
 */
class FetchBackedXhr {
  status = 0;
  responseText = '';
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  private readonly headers = new Headers();
  private method = 'GET';
  private path = '';

  open(method: string, path: string): void {
    this.method = method;
    this.path = path;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers.set(name, value);
  }

  addEventListener(type: string, listener: EventListener): void {
    this.events.addEventListener(type, listener);
  }

  send(body: string): void {
    const size = new TextEncoder().encode(body).length;
    this.upload.dispatchEvent(
      new ProgressEvent('progress', { lengthComputable: true, loaded: size, total: size }),
    );
    fetch(this.path, { method: this.method, headers: this.headers, body })
      .then(async (response) => {
        this.status = response.status;
        this.responseText = await response.text();
        this.events.dispatchEvent(new Event('load'));
      })
      .catch(() => {
        this.events.dispatchEvent(new Event('error'));
      });
  }
}

/** Replaces XMLHttpRequest with one answered by the `stubFetch` handlers. */
export function stubXhr(): void {
  vi.stubGlobal('XMLHttpRequest', FetchBackedXhr);
}
