/** Not built yet: this screen says so plainly until its feature lands. */
export function UploadPage() {
  return (
    <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8">
      <h1 className="text-2xl font-semibold text-slate-900">Report Generation</h1>
      <p className="mt-2 text-slate-700">This screen is not available yet.</p>
    </section>
  );
}
