// Where the tests find the repository and the shared public data: one place, whatever folder a test sits in.
import path from 'node:path';

/** The repository root. */
export const REPO = path.resolve(import.meta.dirname, '../..');
/** `../shared` beside the checkout: data/, reference/, spec/. */
export const SHARED = path.resolve(REPO, '..', 'shared');
/** The raw public files the build reads (REII_SOURCES when set, as for the build itself). */
export const SHARED_DATA = process.env['REII_SOURCES'] ? path.resolve(process.env['REII_SOURCES']) : path.join(SHARED, 'data');
/** The reviewed legal facts and standards notes. */
export const REFERENCE = path.join(SHARED, 'reference');

/** A path inside the repository. */
export const repoPath = (...parts: string[]): string => path.join(REPO, ...parts);
