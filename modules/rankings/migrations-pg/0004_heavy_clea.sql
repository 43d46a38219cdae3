CREATE TABLE "rankings_excluded_users" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"excluded_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rankings_excluded_users" ADD CONSTRAINT "rankings_excluded_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;