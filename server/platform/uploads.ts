import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import { AppError } from "../../domain/errors";

export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export const WORKSHEET_TYPES = [...IMAGE_TYPES, "application/pdf"] as const;
/** A DICOM Part 10 file: an ultrasound machine's structured report of the measurements (issue 28). */
export const DICOM_TYPE = "application/dicom";
/** What the worksheet upload takes: the sheet itself, or the machine's DICOM SR instead of it. */
export const WORKSHEET_UPLOAD_TYPES = [...WORKSHEET_TYPES, DICOM_TYPE] as const;

export type Upload = { data: Buffer; mimeType: string; filename: string };
export type MultipartForm = { files: Map<string, Upload>; fields: Record<string, string> };

/** The upload a service asks for when it is ready to take it (after its permission check): services never see the request. */
export type UploadSource = () => Promise<Upload>;

/** Reads the one image field of a multipart request, checked by its content. */
export async function readImageUpload(request: FastifyRequest, field: string, maxBytes: number): Promise<Upload> {
  const form = await readMultipart(request, { files: { [field]: { types: IMAGE_TYPES, required: true } }, maxBytes });
  return form.files.get(field)!;
}

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/**
 * Reads a whole multipart form. Files are checked by their bytes, never by name or declared type,
 * so a renamed executable or an SVG with script is refused.
 */
export async function readMultipart(
  request: FastifyRequest,
  rules: { files: Record<string, { types: readonly string[]; required: boolean }>; maxBytes: number },
): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Expected a multipart/form-data upload");
  const files = new Map<string, Upload>();
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: rules.maxBytes } })) {
      if (part.type === "field") {
        fields[part.fieldname] = String(part.value ?? "");
        continue;
      }
      const rule = rules.files[part.fieldname];
      if (!rule) {
        await part.toBuffer().catch(() => undefined);
        throw new AppError("BAD_REQUEST", `Unexpected file field: ${part.fieldname}`, part.fieldname);
      }
      files.set(part.fieldname, await checkedFile(part, rule.types, rules.maxBytes));
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") {
      throw new AppError("PAYLOAD_TOO_LARGE", `File size must be less than ${megabytes(rules.maxBytes)} MB`);
    }
    throw new AppError("BAD_REQUEST", "The upload could not be read (malformed multipart body)");
  }
  for (const [name, rule] of Object.entries(rules.files)) {
    if (rule.required && !files.has(name)) throw new AppError("BAD_REQUEST", `Missing file: ${name}`, name);
  }
  return { files, fields };
}

async function checkedFile(part: MultipartFile, types: readonly string[], maxBytes: number): Promise<Upload> {
  const data = await part.toBuffer();
  if (part.file.truncated || data.length > maxBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", `File size must be less than ${megabytes(maxBytes)} MB`, part.fieldname);
  }
  if (data.length === 0) throw new AppError("BAD_REQUEST", "The file is empty", part.fieldname);
  const detected = await fileTypeFromBuffer(data);
  if (!detected || !types.includes(detected.mime)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", unsupportedMessage(types), part.fieldname);
  }
  return { data, mimeType: detected.mime, filename: safeName(part.filename) };
}

function unsupportedMessage(types: readonly string[]): string {
  const names = types.map((t) => t.split("/")[1]!.replace("jpeg", "jpg")).join(", ");
  return types.every((t) => t.startsWith("image/"))
    ? `Please select an image file (${names})`
    : `Unsupported file type: accepted types are ${names}`;
}

/** Keeps a display name only: no path, no control characters. */
export function safeName(name: string | undefined): string {
  const base = (name ?? "upload").split(/[\\/]/).pop() ?? "upload";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return base.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || "upload";
}
