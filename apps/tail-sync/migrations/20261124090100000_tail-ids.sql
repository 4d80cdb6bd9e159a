-- Up Migration

-- Service tail ids (PostgresTailIdAllocator takes them a block at a time). Made at start with
-- this statement before there were migrations.
create sequence if not exists tail_ids as bigint minvalue 1 start with 1;
