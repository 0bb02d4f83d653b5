import type { FailureKind } from '../results/classify-failure';

/** A failed run, with the kind of failure the page explains. */
export class LabRunError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'LabRunError';
  }
}
