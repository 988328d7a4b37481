import { uploadedFile } from "../../../../domain/contracts/clinic";
import { api } from "../../lib/api";

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The client-side check of a chosen file; the server checks the bytes again. null when acceptable. */
export function imageFileProblem(file: File): { title: string; description: string } | null {
  if (!file.type.startsWith("image/")) return { title: "Invalid File", description: "Please select an image file" };
  if (file.size > MAX_IMAGE_BYTES) return { title: "Invalid File", description: "File size must be less than 10 MB" };
  return null;
}

/** Sends one image as a multipart field and answers the stored file's URL. */
export async function uploadImage(
  url: "/api/upload-signature" | "/api/upload-logo",
  field: string,
  file: Blob,
  name: string,
) {
  const form = new FormData();
  form.append(field, file, name);
  return (await api.send("POST", url, form, uploadedFile)).url;
}
