import { createHash } from "node:crypto";

/**
 * Logos and signatures embedded once per render thread, not once per document (issue 27). pdfkit decodes a PNG
 * for every document it draws it in: inflate, split the alpha channel from the colour, deflate both again (most
 * of a signed report's image cost). Here an image is embedded once into a recording document, which keeps the
 * PDF objects pdfkit wrote (dictionaries and already-compressed streams); each document then gets copies of those
 * objects, byte for byte what pdfkit would have written. Keyed by the SHA-256 of the image bytes, so a changed
 * logo or signature is a new entry; the least recently used go past a byte budget.
 */

/** A PDF object as pdfkit wrote it while embedding: its dictionary (may name other recorded objects) and stream. */
class RecordedObject {
  readonly chunks: Uint8Array[] = [];
  readonly ended: Promise<void>;
  private resolveEnded!: () => void;

  constructor(readonly data: Record<string, unknown>) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
  }

  end(chunk?: Uint8Array): void {
    if (chunk) this.chunks.push(chunk);
    this.resolveEnded();
  }

  get byteLength(): number {
    return this.chunks.reduce((n, c) => n + c.byteLength, 0);
  }
}

/** What pdfkit's image classes call on the document while embedding: only `ref`. */
class RecordingDocument {
  readonly objects: RecordedObject[] = [];

  ref(data: Record<string, unknown> = {}): RecordedObject {
    const object = new RecordedObject(data);
    this.objects.push(object);
    return object;
  }
}

type Embedded = {
  width: number;
  height: number;
  orientation?: number;
  root: RecordedObject;
  bytes: number;
};

/** pdfkit's image object (PNGImage or JPEG): what `doc.openImage` answers. */
type PdfkitImage = {
  width: number;
  height: number;
  orientation?: number;
  obj: unknown;
  embed(document: unknown): void;
};

type Doc = PDFKit.PDFDocument & { openImage(src: Buffer): PdfkitImage };

const CACHE_BYTES = 32 * 1024 * 1024;
const cache = new Map<string, Embedded>();
let cachedBytes = 0;
let labels = 0;

function remember(key: string, embedded: Embedded): void {
  cache.set(key, embedded);
  cachedBytes += embedded.bytes;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BYTES || oldKey === key) break;
    cache.delete(oldKey);
    cachedBytes -= old.bytes;
  }
}

/** pdfkit embeds the image into a recording document; answers once its last stream is written (PNG is async). */
async function embedOnce(doc: Doc, data: Buffer): Promise<Embedded> {
  const image = doc.openImage(data);
  const recorder = new RecordingDocument();
  image.embed(recorder);
  const root = image.obj as RecordedObject;
  await root.ended;
  const bytes = recorder.objects.reduce((n, o) => n + o.byteLength, 0);
  return { width: image.width, height: image.height, orientation: image.orientation, root, bytes };
}

/** The recorded objects written into `doc` as new objects (a value naming a recorded object names its copy). */
function replay(doc: PDFKit.PDFDocument, object: RecordedObject, made: Map<RecordedObject, unknown>): unknown {
  const existing = made.get(object);
  if (existing) return existing;
  const copy = (value: unknown): unknown =>
    value instanceof RecordedObject ? replay(doc, value, made) : Array.isArray(value) ? value.map(copy) : value;
  const data = Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, copy(v)]));
  // pdfkit's types want a chunk for `end`; its references take none (an object without a stream).
  const ref = doc.ref(data) as unknown as { end(chunk?: Uint8Array): void };
  made.set(object, ref);
  // The streams are written as recorded: a dictionary with a Filter is not compressed again by pdfkit.
  if (object.chunks.length === 0) ref.end();
  else ref.end(object.chunks.length === 1 ? object.chunks[0] : Buffer.concat(object.chunks));
  return ref;
}

/**
 * The image as `doc.image()` takes it: an object with a size that embeds itself into its document, from the cache
 * or embedded now. Use one per document and drawing.
 */
export async function cachedPdfImage(doc: PDFKit.PDFDocument, data: Uint8Array): Promise<PdfkitImage> {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const key = createHash("sha256").update(bytes).digest("hex");
  let embedded = cache.get(key);
  if (embedded) {
    // Most recently used last: the budget drops from the front.
    cache.delete(key);
    cache.set(key, embedded);
  } else {
    embedded = await embedOnce(doc as Doc, bytes);
    remember(key, embedded);
  }
  const { width, height, orientation, root } = embedded;
  const image = {
    width,
    height,
    orientation,
    label: `Ic${++labels}`,
    obj: null as unknown,
    embed(target: PDFKit.PDFDocument) {
      image.obj = replay(target, root, new Map());
    },
  };
  return image;
}

/** For tests: entries and bytes held. */
export function pdfImageCacheSize(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cachedBytes };
}
