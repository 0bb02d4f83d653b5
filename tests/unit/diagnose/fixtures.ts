/**
 * Reads the diagnose inputs: the examples the tool pages ship (src/diagnose/examples) and the test-only fixtures
 * (tests/fixtures/diagnose); make_fixtures.py writes both.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The examples the tool pages offer ("try an example"), which the tests read as well. */
export const EXAMPLES_DIR = resolve(import.meta.dirname, '../../../src/diagnose/examples');
/** Inputs only the tests read: expected analyses, hostile pickles, CPython's pickle protocols. */
export const FIXTURES_DIR = resolve(import.meta.dirname, '../../fixtures/diagnose');

/** A shipped example's text. */
export const exampleText = (name: string): string => readFileSync(resolve(EXAMPLES_DIR, name), 'utf8');
/** A shipped example's bytes. */
export const exampleBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(resolve(EXAMPLES_DIR, name)));
/** A test-only fixture's text. */
export const fixtureText = (name: string): string => readFileSync(resolve(FIXTURES_DIR, name), 'utf8');
/** A test-only fixture's bytes. */
export const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(resolve(FIXTURES_DIR, name)));
/** Real pastes from public issue trackers, one per file; tests/fixtures/diagnose/README.md names each one's source. */
export const PASTES_DIR = resolve(FIXTURES_DIR, 'pastes');
/** A real paste's text. */
export const pasteText = (name: string): string => readFileSync(resolve(PASTES_DIR, name), 'utf8');
