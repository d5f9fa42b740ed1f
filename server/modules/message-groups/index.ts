// The message-groups module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files
// (docs/decisions.md, "Modules"). Add a name here only when another module needs it.
export { messageGroupScreens } from './message-group-screens';
export { insertMessageGroup } from './message-groups.queries';
export { announceGroupChange } from './message-groups.service';
