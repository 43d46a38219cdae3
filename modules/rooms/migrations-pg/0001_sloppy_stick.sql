CREATE TABLE "rooms_private" (
	"room_id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"code" text NOT NULL,
	"auto_start" boolean DEFAULT false NOT NULL,
	"active_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "rooms_private_removed" (
	"room_id" integer NOT NULL,
	"player_key" text NOT NULL,
	"removed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rooms_private_removed_room_id_player_key_pk" PRIMARY KEY("room_id","player_key")
);
--> statement-breakpoint
DROP INDEX "rooms_rooms_name_unique";--> statement-breakpoint
ALTER TABLE "rooms_rooms" ADD COLUMN "kind" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms_private" ADD CONSTRAINT "rooms_private_room_id_rooms_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms_rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms_private" ADD CONSTRAINT "rooms_private_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms_private_removed" ADD CONSTRAINT "rooms_private_removed_room_id_rooms_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms_rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_private_code_unique" ON "rooms_private" USING btree ("code");--> statement-breakpoint
CREATE INDEX "rooms_private_owner_open_idx" ON "rooms_private" USING btree ("owner_id") WHERE closed_at IS NULL;--> statement-breakpoint
CREATE INDEX "rooms_private_idle_idx" ON "rooms_private" USING btree ("active_at") WHERE closed_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_rooms_name_unique" ON "rooms_rooms" USING btree ("name") WHERE kind = 'public';