// Reads the service's OpenAPI document off the page's main thread: it is about half a megabyte of
// JSON, and parsing it there blocks a phone for a noticeable moment. Posts back only the paths.
import { readServicePaths } from './openapi-paths.ts';

void readServicePaths().then((paths) => postMessage(paths));
