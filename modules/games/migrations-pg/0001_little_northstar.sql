CREATE TABLE "games_owners" (
	"mode" text NOT NULL,
	"source_id" text NOT NULL,
	"epoch" integer NOT NULL,
	CONSTRAINT "games_owners_mode_source_id_pk" PRIMARY KEY("mode","source_id")
);
