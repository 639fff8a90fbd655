/**
 * Every answer carries a request id in this header: the client's own when it sent a
 * well-formed one (so a gateway's id follows the request through), else one the server made.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Letters, digits and `._:-`, 1 to 128 characters: safe to log, echo and print on a terminal. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isWellFormedRequestId(id: string): boolean {
  return WELL_FORMED_REQUEST_ID.test(id);
}
