ALTER TABLE "physicians" ADD COLUMN "user_id" varchar(64);--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "allow_sign_on_behalf" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD COLUMN "physician_id" integer;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "finalized_on_behalf" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "physicians" ADD CONSTRAINT "physicians_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "physicians_user_idx" ON "physicians" USING btree ("user_id");