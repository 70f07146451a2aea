-- Location-risk canonical tables, created empty; each source's adapter step fills its part, so a missing
-- source only removes its rows (warehouse/docs/location.md documents every table and column).

-- One row per National Priorities List site (final, proposed or deleted); `counted` marks the sites that count
-- as "Superfund sites" for superfund_count_1mi (final + proposed).
create or replace table superfund_sites (
    epa_id varchar primary key,
    sems_id varchar,
    site_name varchar,
    npl_status varchar not null,        -- final | proposed | deleted
    npl_status_raw varchar,
    counted boolean not null,
    street varchar,
    city varchar,
    county_name varchar,
    county_fips varchar,
    state_code varchar,
    zip varchar,
    lat double not null,
    lng double not null,
    federal_facility boolean,
    source varchar not null,            -- npl_sites | sems_sites
    as_of date
);

-- One row per active SEMS site that is not on the NPL ("Not on the NPL": removal and emergency sites) with usable
-- coordinates: not Superfund NPL sites, never in superfund_count_1mi; a point answer counts them apart
-- (sems_non_npl_count_1mi, location.md "NPL status"). Filled by 40_location_11_superfund_sems.sql.
create or replace table superfund_sems_other (
    epa_id varchar primary key,
    site_name varchar,
    npl_status_raw varchar,
    state_code varchar,
    lat double not null,
    lng double not null
);

-- One row per (H3 res-8 cell, counted site) where the cell comes within 1 mile of the site.
create or replace table int_superfund_h3 (
    cell varchar not null,
    epa_id varchar not null,
    min_distance_m double not null,     -- site to the nearest point of the cell (0 inside)
    within_1mi boolean not null         -- every point of the cell is within 1 mile
);

-- One row per county with an NRI composite risk score.
create or replace table int_nri_counties (
    county_fips varchar primary key,
    state_code varchar,
    county_name varchar,
    risk_score double,
    risk_rating varchar,
    eal_score double,
    eal_rating varchar
);

-- One row per loaded FEMA flood-hazard GeoJSON file (a "flood map").
create or replace table flood_maps (
    map_id integer primary key,
    source_file varchar not null,
    features integer not null,
    polygons integer not null,
    rejected integer not null,
    min_lng double, min_lat double, max_lng double, max_lat double,
    complete boolean not null,          -- the map has minimal-hazard X polygons: its polygons ARE its mapped area
    area_label varchar,                 -- the declared area the file was cut to (null: undeclared)
    area_json varchar,                  -- {label, counties: [FIPS], places: [{city, state}]}
    area_basis varchar,                 -- where the declaration came from: registry | sidecar <file>.area.json
    as_of date,
    as_of_basis varchar
);

-- One row per flood-hazard polygon piece: a polygon part of a feature (a MultiPolygon gives one per part);
-- parts over 600 vertices are cut into quadrant tiles so H3 covering and point-in-polygon stay fast.
create or replace table flood_zones (
    polygon_id integer primary key,
    map_id integer not null,
    source_file varchar not null,
    feature_index integer not null,     -- 0-based position of the feature in its file
    part_index integer not null,
    piece_index integer not null,       -- 0 unless the part was tiled
    zone varchar not null,              -- FLD_ZONE as published (A, AE, AO, VE, X, ...)
    zone_subtype varchar,               -- ZONE_SUBTY (FLOODWAY, 0.2 PCT ANNUAL CHANCE FLOOD HAZARD, ...)
    sfha boolean not null,              -- SFHA_TF
    zone_class varchar not null,        -- zone, with X split into X-shaded / X-levee / X-minimal
    risk_label varchar not null,
    risk_rank integer not null,
    min_lng double, min_lat double, max_lng double, max_lat double,
    area_m2 double,
    vertices integer,
    geojson varchar not null            -- the piece's GeoJSON Polygon geometry
);

-- One row per (H3 res-9 cell, flood polygon part) where the cell overlaps the polygon.
create or replace table int_flood_h3 (
    cell varchar not null,
    polygon_id integer not null,
    full_cell boolean not null          -- the cell lies wholly inside (no point-in-polygon test needed)
);

-- One row per ZCTA boundary polygon feature loaded (ZCTA 2010 files; state parts of cross-state ZCTAs merge).
create or replace table zcta_polygons (
    zip varchar primary key,
    state_fips varchar,
    source_file varchar not null,
    parts integer not null,
    land_m2 double,
    area_m2 double,
    min_lng double, min_lat double, max_lng double, max_lat double,
    geojson varchar not null            -- GeoJSON MultiPolygon geometry
);

-- One row per (H3 res-8 cell, ZCTA piece) where the cell overlaps the piece. Pieces: the ZCTA's polygon parts,
-- tiled over 600 vertices (location-build.ts zctaPieces(), deterministic, so the live index re-derives them).
create or replace table int_zcta_h3 (
    cell varchar not null,
    zip varchar not null,
    piece_index integer not null,
    full_cell boolean not null
);
