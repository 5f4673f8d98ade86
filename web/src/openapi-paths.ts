// The path templates of the service's own OpenAPI document (fetched once; exempt from the request
// limit), or null when it could not be had. Shared by the page and the worker that reads it.

export async function readServicePaths(): Promise<string[] | null> {
  try {
    const response = await fetch('/openapi.json');
    if (!response.ok) return null;
    const doc = (await response.json()) as { paths?: Record<string, unknown> };
    return doc.paths ? Object.keys(doc.paths) : null;
  } catch {
    return null;
  }
}
