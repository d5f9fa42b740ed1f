// The licences module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { licenseAssignments } from './license-assignments';
export { assertFreeLicencesNotOverdrawn, assertOrderNotOversold, lockFreeLicences, lockOrderForLicensing } from './license-enforcement';
