-- Room on each page of device for a new row version beside the old one, so that the updates of lastSeen,
-- lastActivity and the reported facts (the ping round rewrites every connected screen every interval) are HOT:
-- no index touched. Existing pages get the room back as vacuum frees them.
ALTER TABLE "device" SET (fillfactor = 80);
