import { ApiError } from "../../lib/api";

/**
 * POSTs a form with XMLHttpRequest rather than fetch: only XHR reports the browser's real upload progress.
 * A non-OK answer becomes the same ApiError as every other call ("STATUS: body").
 */
export function postFormWithProgress<T>(
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
): { promise: Promise<T>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText));
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as T);
      } catch {
        reject(new ApiError(xhr.status, xhr.responseText, "Invalid JSON"));
      }
    };
    xhr.onerror = () => reject(new Error("Network error: the upload did not reach the server"));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
