import { describeAssignments } from '@/server/modules/campaigns';
import {
  messageContentAssignments,
  messageContentGroupAssignments,
  messageDeviceAssignments,
  messageDeviceGroupAssignments,
  messageFileAssignments,
  messageFileFolderAssignments,
} from './messages.table';

/** A message's six assignment kinds: the campaigns' descriptors with a message as owner (no message groups). */
export const messageAssignmentKinds = describeAssignments({
  name: 'message',
  tables: {
    contentAssignment: messageContentAssignments,
    contentGroupAssignment: messageContentGroupAssignments,
    fileAssignment: messageFileAssignments,
    fileFolderAssignment: messageFileFolderAssignments,
    deviceAssignment: messageDeviceAssignments,
    deviceGroupAssignment: messageDeviceGroupAssignments,
  },
});
