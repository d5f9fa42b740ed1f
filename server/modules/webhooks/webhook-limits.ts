/** Spec 5 §4: a key answers at most 50 triggers a second. */
export const TRIGGERS_PER_SECOND = 50;
/** The body limit of a trigger. */
export const TRIGGER_BODY_LIMIT = 256 * 1024;
