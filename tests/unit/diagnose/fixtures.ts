/** Reads the diagnose example inputs from tests/fixtures/diagnose (written by make_fixtures.py). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const DIR = resolve(import.meta.dirname, '../../fixtures/diagnose');

/** A fixture's text. */
export const fixtureText = (name: string): string => readFileSync(resolve(DIR, name), 'utf8');
/** A fixture's bytes. */
export const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(resolve(DIR, name)));
