/** The Indication of a study that gives none (the engine writes it; the editor's shortcuts replace it). */
export const INDICATION_NOT_STATED = "Not stated.";
