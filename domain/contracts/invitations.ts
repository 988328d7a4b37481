import { z } from "zod";
import { roles } from "../permissions";
import { currentUser, password } from "./auth";

export const INVITATION_DAYS = 7;

export const createInvitationRequest = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Please enter a valid email address").max(255)),
  role: z.enum(roles, "Please select a role"),
  /** Invited from a physician's card: accepting links the new account to that physician (role physician). */
  physicianId: z.number().int().positive().optional(),
});
export type CreateInvitationRequest = z.infer<typeof createInvitationRequest>;

export const createInvitationResponse = z.object({
  id: z.number(),
  email: z.string(),
  role: z.string(),
  expiresAt: z.iso.datetime(),
  invitationUrl: z.string(),
  /** True when the link was also sent by e-mail (SMTP configured and delivery accepted). */
  emailed: z.boolean(),
});
export type CreateInvitationResponse = z.infer<typeof createInvitationResponse>;

export const pendingInvitation = z.object({
  id: z.number(),
  email: z.string(),
  role: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** Set when invited from a physician's card: a new link keeps the link to that physician. */
  physicianId: z.number().nullable(),
});
export const pendingInvitationList = z.array(pendingInvitation);
export type PendingInvitation = z.infer<typeof pendingInvitation>;

/** The token is 32 random bytes in base64url: 43 characters. */
export const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Invalid invitation link") });

export const invitationDetails = z.object({
  clinic: z.object({ name: z.string().nullable(), address: z.string().nullable() }),
  role: z.string(),
  email: z.string(),
  expiresAt: z.iso.datetime(),
});
export type InvitationDetails = z.infer<typeof invitationDetails>;

export const acceptInvitationResponse = z.object({ clinicId: z.number(), clinicName: z.string() });
export type AcceptInvitationResponse = z.infer<typeof acceptInvitationResponse>;

export const registerViaInvitationRequest = z.object({
  firstName: z.string().trim().min(1, "First name is required").max(100),
  lastName: z.string().trim().min(1, "Last name is required").max(100),
  password,
});
export type RegisterViaInvitationRequest = z.infer<typeof registerViaInvitationRequest>;

/** 201 of POST /api/invitations/{token}/register: the new account, signed in, and the clinic it joined. */
export const registeredViaInvitation = z.object({ clinicName: z.string(), user: currentUser });
