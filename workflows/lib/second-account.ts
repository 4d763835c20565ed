/**
 * Spec 7.1 says only that a second creation fails; open-points gives the status and type of a
 * refused request (400 ValidationException). A body the client validated before sending fails so
 * without naming a field at fault: that is the bound token. No provider errorCode is relied on.
 */
export function isSecondAccountCreation(d: { status?: number; type?: string; problematicField?: string } | undefined): boolean {
  return d?.status === 400 && d.type === 'ValidationException' && !d.problematicField;
}
