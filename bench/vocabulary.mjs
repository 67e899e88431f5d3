// Word lists for the synthetic agent-memory corpus (bench/lib.mjs). Plain data, grouped by the slot
// they fill in a sentence template; `_` joins multi-word entries. Changing any list changes the corpus:
// bump GENERATOR_VERSION in bench/lib.mjs so cached corpora are rebuilt.

const words = (text) =>
  text
    .trim()
    .split(/\s+/)
    .map((w) => w.replaceAll('_', ' '));

export const VOCABULARY = Object.freeze({
  first: words(`
    Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent
    Victor Walter Wendy Aisha Amara Ananya Andrea Anton Arjun Astrid Beatriz Bilal Bruno Camille Carlos
    Chen Chiara Chloe Dmitri Diego Elena Elif Emeka Emma Fatima Felix Freya Gabriel Giulia Hana Hassan
    Helena Hiro Ines Ingrid Isaac Jamal Jana Javier Jin Joao Jonas Kai Karim Kenji Kofi Lars Leila Lena
    Liam Lucia Luis Maya Mateo Mei Mila Mohammed Nadia Naomi Nikolai Nina Noah Omar Oscar Pablo Priya
    Quentin Rafael Rania Ravi Rosa Sakura Samir Sara Sebastian Sofia Soren Tariq Tomas Uma Valentina
    Vikram Yara Yusuf Zara Zoe Ahmed Akira Alejandro Amir Anika Aurora Bianca Boris Caleb Dalia Dario
    Ebony Eitan Esther Farah Fiona Georg Hugo Imani Irene Ismail Jorge Kamala Keanu Klara Laszlo Leon
    Lina Magnus Marek Marta Mirela Nils Oren Paloma Pedro Petra Quinn Reza Rohan Sanjay Selin Silvia
    Stefan Tamar Teodor Thea Ulrich Vera Wanjiru Xavier Yasmin Yuki Zeynep Adele Ben Clara Daniel Eva
    Finn George Hannah Ian Jack Kate Leo Maria Nathan Owen Paul Rachel Sam Tom Victoria Will
  `),
  last: words(`
    Smith Johnson Garcia Martinez Rossi Muller Novak Kowalski Tanaka Suzuki Kim Park Nguyen Tran Singh
    Patel Sharma Khan Ahmed Okafor Mensah Silva Santos Costa Ferreira Dubois Moreau Lefebvre Schmidt
    Weber Fischer Becker Hansen Nielsen Larsen Andersson Johansson Virtanen Korhonen Popescu Ionescu
    Horvath Nagy Petrov Ivanov Volkov Cohen Levi Haddad Yilmaz Demir Kaya Ozturk Hernandez Lopez
    Gonzalez Perez Sanchez Ramirez Torres Flores Rivera Morales Ortiz Castillo Romero Alvarez Mendoza
    OBrien Murphy Kelly Walsh Byrne Ryan Campbell Stewart Wright Clarke Baker Turner Hughes Edwards
    Cooper Morgan Bell Ward Cox Bailey Reed Brooks Price Bennett Wood Barnes Fisher Hayes Myers Ford
    Gray Jensen Berg Lindqvist Haas Vogel Keller Wagner Brandt Kruger Sato Watanabe Ito Yamamoto Chen
    Wang Li Zhang Liu Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo Lin He Gao Luo
  `),
  city: words(`
    Lisbon Porto Madrid Barcelona Valencia Seville Paris Lyon Marseille Bordeaux Nice Brussels Antwerp
    Amsterdam Rotterdam Utrecht Berlin Hamburg Munich Cologne Frankfurt Leipzig Dresden Vienna Graz
    Zurich Geneva Basel Milan Rome Turin Naples Florence Bologna Venice Prague Brno Warsaw Krakow Gdansk
    Budapest Bucharest Sofia Athens Thessaloniki Istanbul Ankara Izmir Copenhagen Aarhus Stockholm
    Gothenburg Oslo Bergen Helsinki Tampere Tallinn Riga Vilnius Dublin Cork London Manchester Leeds
    Bristol Edinburgh Glasgow Cardiff Belfast Reykjavik New_York Boston Chicago Denver Seattle Portland
    San_Francisco Los_Angeles San_Diego Austin Dallas Houston Atlanta Miami Toronto Montreal Vancouver
    Calgary Mexico_City Guadalajara Bogota Lima Santiago Buenos_Aires Sao_Paulo Rio_de_Janeiro Quito
    Nairobi Lagos Accra Cairo Casablanca Cape_Town Johannesburg Addis_Ababa Dakar Tunis Dubai Doha
    Riyadh Tel_Aviv Amman Beirut Mumbai Delhi Bangalore Chennai Hyderabad Pune Kolkata Karachi Lahore
    Dhaka Colombo Kathmandu Bangkok Hanoi Saigon Manila Jakarta Singapore Kuala_Lumpur Hong_Kong Taipei
    Seoul Busan Tokyo Osaka Kyoto Sapporo Shanghai Beijing Shenzhen Chengdu Sydney Melbourne Brisbane
    Perth Auckland Wellington Honolulu Anchorage
  `),
  country: words(`
    Portugal Spain France Belgium Netherlands Germany Austria Switzerland Italy Poland Czechia Hungary
    Romania Bulgaria Greece Turkey Denmark Sweden Norway Finland Estonia Latvia Lithuania Ireland
    Scotland Wales Iceland Canada Mexico Colombia Peru Chile Argentina Brazil Ecuador Kenya Nigeria
    Ghana Egypt Morocco Ethiopia Senegal Tunisia Jordan Lebanon India Pakistan Bangladesh Nepal Vietnam
    Thailand Malaysia Indonesia Philippines Japan Korea China Taiwan Australia
  `),
  company: words(`
    Acme Globex Initech Umbrella Hooli Vandelay Stark_Industries Wayne_Enterprises Cyberdyne Soylent
    Tyrell Wonka Gringotts Oceanic Monarch Aperture Black_Mesa Massive_Dynamic Pied_Piper Dunder_Mifflin
    Prestige_Worldwide Sterling_Cooper Bluth_Company Los_Pollos Krusty_Krab Nakatomi Weyland Virtucon
    Zorg Octan Axiom Nimbus Helix Quantum_Labs Bright_Path Northwind Contoso Fabrikam Tailspin Litware
    Adventure_Works Proseware Lucerne Margie_Travel Wingtip Fourth_Coffee Alpine_Ski Blue_Yonder
    Coho_Winery Graphic_Design_Institute Humongous_Insurance Southridge_Video Trey_Research Woodgrove_Bank
    Relecloud Datum Lamna Wide_World_Importers Coral_Bay Redwood_Health Silverline Ironclad Greenfield
    Lumen_Energy Orbital Keystone Harbor_Freight Summit_Bank Atlas_Logistics Beacon Cobalt Everest
    Falcon_Air Granite Horizon Juniper Kestrel Meridian Nova Obsidian Pinnacle Quasar Radiant Sable Titan
  `),
  project: words(`
    Falcon Phoenix Atlas Hermes Apollo Artemis Orion Pegasus Neptune Mercury Jupiter Saturn Voyager
    Pathfinder Horizon Lighthouse Compass Beacon Keystone Cornerstone Bedrock Granite Basalt Obsidian
    Sapphire Emerald Ruby Topaz Amber Jade Onyx Cobalt Indigo Crimson Scarlet Aurora Borealis Nebula
    Quasar Pulsar Comet Meteor Zenith Summit Everest Kilimanjaro Denali Matterhorn Rainier Shasta Tahoe
    Redwood Sequoia Cypress Willow Maple Birch Aspen Juniper Hemlock Cedar Spruce Tundra Glacier Fjord
    Lagoon Delta Estuary Canyon Mesa Prairie Savanna
  `),
  team: words(`
    platform payments search growth infra billing onboarding checkout mobile web data analytics security
    support sales marketing design research finance legal recruiting operations logistics procurement
    reliability frontend backend firmware hardware robotics
  `),
  tool: words(`
    Kubernetes Docker Terraform Ansible Jenkins GitHub_Actions GitLab CircleCI ArgoCD Helm Prometheus
    Grafana Loki Jaeger Datadog Sentry PagerDuty Opsgenie Splunk Kibana Elasticsearch OpenSearch Kafka
    RabbitMQ Redis Memcached PostgreSQL MySQL SQLite MongoDB Cassandra DynamoDB BigQuery Snowflake
    Redshift ClickHouse DuckDB Spark Airflow dbt Flink Pandas NumPy PyTorch TensorFlow Jupyter VS_Code
    Vim Emacs IntelliJ Xcode Android_Studio Figma Sketch Notion Confluence Jira Linear Asana Trello
    Slack Zoom Teams Outlook Gmail Calendly Salesforce HubSpot Zendesk Intercom Stripe PayPal Shopify
    WordPress Next.js React Vue Angular Svelte Node.js Deno Bun TypeScript Python Rust Go Java Kotlin
    Swift Ruby Rails Django Flask FastAPI Spring Express Hono GraphQL gRPC REST OpenAPI Nginx Envoy
    Istio Consul Vault Nomad Packer Vagrant Bazel Gradle Maven npm pnpm Yarn webpack Vite esbuild Babel
    ESLint Prettier Jest Vitest Playwright Cypress Selenium Postman curl ssh tmux git rsync cron systemd
    Linux Ubuntu Debian Fedora macOS Windows iOS Android AWS GCP Azure Cloudflare Vercel Netlify Heroku
    Fly.io S3 Lambda EC2 CloudFront Route53 BigTable Pub/Sub Firestore Supabase Firebase Auth0 Okta
  `),
  tech: words(`
    migration index schema query endpoint deployment rollout rollback release build pipeline test_suite
    unit_test integration_test flaky_test benchmark profile flame_graph memory_leak heap_dump thread_dump
    deadlock race_condition timeout retry backoff circuit_breaker rate_limit quota cache cache_miss
    cache_eviction connection_pool replica primary failover shard partition backup snapshot restore
    checksum hash signature certificate TLS_handshake DNS_record load_balancer health_check liveness_probe
    readiness_probe container image registry manifest namespace cluster node pod volume secret config_map
    feature_flag canary blue_green_deploy hotfix patch changelog pull_request code_review merge_conflict
    branch commit tag monorepo dependency lockfile vulnerability CVE audit_log access_log error_budget
    SLO SLA incident postmortem runbook on_call_rotation alert dashboard metric trace span log_line
    payload webhook callback queue topic consumer producer offset dead_letter_queue batch_job cron_job
    worker_thread event_loop garbage_collector allocator compiler linter type_checker bundle source_map
    API_key access_token refresh_token session cookie OAuth_flow SSO login_page password_reset two_factor
    permission role tenant workspace billing_plan invoice subscription trial churn_report funnel
    experiment A/B_test sample_size p_value regression embedding vector_index tokenizer prompt model
    fine_tune dataset label annotation evaluation accuracy latency throughput p99 memory_usage CPU_usage
    disk_usage bandwidth packet_loss jitter firmware sensor actuator gripper camera lidar battery charger
    motor encoder calibration map route waypoint obstacle
  `),
  error: words(`
    404 500 502 503 504 OOMKilled segfault stack_overflow null_pointer type_error syntax_error
    permission_denied connection_refused connection_reset broken_pipe disk_full too_many_open_files
    certificate_expired DNS_timeout handshake_failure deadlock_detected lock_timeout unique_violation
    foreign_key_violation serialization_failure checksum_mismatch version_conflict schema_mismatch
    quota_exceeded rate_limited unauthorized forbidden bad_gateway gateway_timeout out_of_memory
    index_out_of_range division_by_zero assertion_failure panic exit_code_137 exit_code_1 CrashLoopBackOff
    ImagePullBackOff pending_pod evicted_pod
  `),
  object: words(`
    mug cup kettle teapot toaster blender fridge freezer oven microwave dishwasher sink sponge towel
    napkin plate bowl fork spoon knife cutting_board frying_pan saucepan lid colander whisk ladle
    spatula thermos lunchbox water_bottle backpack suitcase duffel_bag handbag wallet purse keychain keys
    umbrella raincoat jacket scarf gloves hat beanie sunglasses glasses contact_lenses watch ring
    necklace bracelet earrings phone charger cable adapter power_bank laptop tablet monitor keyboard mouse
    headphones earbuds speaker microphone webcam printer scanner router modem hard_drive USB_stick SD_card
    camera tripod drone remote_control television projector lamp desk_lamp light_bulb candle vase
    picture_frame mirror clock alarm_clock calendar notebook journal diary pen pencil marker highlighter
    stapler scissors tape envelope stamp folder binder clipboard whiteboard sticky_notes book magazine
    newspaper map passport visa boarding_pass ticket receipt invoice contract lease letter postcard
    gift_card credit_card debit_card library_card ID_badge access_card bicycle helmet skateboard
    scooter car_keys car_seat stroller crib blanket pillow duvet mattress sheets curtains rug carpet
    sofa couch armchair chair stool table desk bookshelf shelf drawer cabinet wardrobe closet hanger
    laundry_basket iron ironing_board vacuum broom mop bucket trash_can recycling_bin toolbox hammer
    screwdriver wrench drill ladder flashlight batteries extension_cord fan heater air_purifier
    humidifier thermostat smoke_detector doorbell lock padlock safe plant flower_pot watering_can seeds
    garden_hose lawn_mower shovel rake wheelbarrow tent sleeping_bag hiking_boots running_shoes sneakers
    sandals slippers socks yoga_mat dumbbells kettlebell jump_rope tennis_racket football basketball
    guitar piano violin ukulele drum headset controller console board_game puzzle deck_of_cards
    vitamins medicine inhaler bandage thermometer toothbrush toothpaste shampoo soap razor perfume
  `),
  food: words(`
    pizza pasta lasagna risotto spaghetti carbonara ravioli gnocchi sushi ramen udon pho pad_thai
    curry biryani dal naan samosa dumplings dim_sum fried_rice noodles tacos burritos quesadilla nachos
    enchiladas guacamole hummus falafel shawarma kebab gyros moussaka paella tapas croissant baguette
    bagel muffin pancakes waffles french_toast omelette scrambled_eggs granola oatmeal porridge yogurt
    cereal toast avocado_toast salad caesar_salad soup minestrone gazpacho chili stew goulash burger
    cheeseburger hot_dog sandwich wrap steak roast_chicken grilled_salmon fish_and_chips shrimp lobster
    crab oysters mussels tofu tempeh seitan lentils chickpeas beans rice quinoa couscous bulgur polenta
    potatoes fries mashed_potatoes sweet_potatoes carrots broccoli cauliflower spinach kale lettuce
    tomatoes cucumbers peppers onions garlic mushrooms zucchini eggplant pumpkin corn peas asparagus
    apples bananas oranges grapes strawberries blueberries raspberries cherries peaches pears plums
    mangoes pineapple watermelon melon kiwi lemons limes figs dates almonds walnuts cashews peanuts
    pistachios peanut_butter jam honey chocolate dark_chocolate ice_cream gelato sorbet cheesecake
    brownies cookies cake carrot_cake apple_pie tiramisu creme_brulee macarons donuts cinnamon_rolls
    cheese cheddar mozzarella parmesan feta brie goat_cheese butter olive_oil vinegar soy_sauce
    ketchup mustard mayonnaise salsa pesto spices cumin paprika turmeric ginger basil oregano
  `),
  drink: words(`
    coffee espresso latte cappuccino flat_white cold_brew decaf tea green_tea black_tea chai matcha
    herbal_tea hot_chocolate orange_juice apple_juice smoothie lemonade iced_tea sparkling_water water
    kombucha beer lager stout cider wine red_wine white_wine rose prosecco champagne whisky gin vodka
    rum tequila mezcal sake soda cola oat_milk almond_milk milk
  `),
  room: words(`
    kitchen living_room dining_room bedroom guest_room bathroom laundry_room garage basement attic
    hallway balcony terrace garden backyard porch patio study home_office nursery playroom pantry
    closet storage_room utility_room stairwell lobby reception conference_room meeting_room break_room
    server_room lab workshop warehouse loading_dock parking_lot rooftop cafeteria canteen library
    classroom auditorium gym locker_room shower_room waiting_room front_desk mail_room print_room
    second_floor third_floor ground_floor east_wing west_wing north_office south_office open_space
    quiet_room phone_booth
  `),
  venue: words(`
    airport train_station bus_station harbor ferry_terminal hotel hostel Airbnb restaurant cafe bakery
    bar pub brewery winery supermarket grocery_store farmers_market mall bookstore pharmacy hospital
    clinic dentist vet school university museum gallery theater cinema concert_hall stadium arena park
    beach lake river mountain trailhead campsite ski_resort swimming_pool climbing_gym yoga_studio
    coworking_space office headquarters branch_office bank post_office city_hall embassy consulate
    courthouse police_station fire_station church temple mosque synagogue market_square old_town
  `),
  activity: words(`
    running jogging hiking cycling swimming climbing bouldering skiing snowboarding surfing sailing
    kayaking rowing yoga pilates meditation weightlifting crossfit boxing karate judo fencing tennis
    badminton squash golf football basketball volleyball baseball cricket rugby chess poker bridge
    cooking baking gardening knitting sewing painting drawing sketching photography pottery woodworking
    reading writing journaling blogging podcasting gaming coding birdwatching fishing camping travelling
    dancing salsa tango singing choir piano_lessons guitar_lessons language_classes Spanish_lessons
    Japanese_lessons French_lessons volunteering mentoring tutoring babysitting dog_walking shopping
    thrifting collecting_vinyl stargazing astronomy chess_club book_club running_club trivia_night
    karaoke board_games escape_rooms wine_tasting brewing_beer foraging
  `),
  animal: words(`
    dog puppy cat kitten rabbit hamster guinea_pig parrot canary goldfish turtle tortoise lizard gecko
    snake horse pony donkey goat sheep cow pig chicken duck goose owl hawk eagle crow pigeon sparrow
    robin fox wolf bear deer moose squirrel raccoon hedgehog otter beaver bat mouse rat frog toad bee
    butterfly ant spider dolphin whale seal penguin
  `),
  pet: words(`
    Biscuit Luna Max Bella Charlie Milo Coco Daisy Rocky Pepper Ziggy Mochi Nala Simba Oreo Loki Olive
    Bailey Buddy Cooper Ginger Honey Juno Kiwi Lola Maple Nugget Peanut Pickles Rosie Scout Toby Waffles
  `),
  color: words(`
    red blue green yellow orange purple pink black white grey brown beige navy teal turquoise maroon
    burgundy olive mint lavender lilac coral salmon gold silver bronze cream ivory charcoal tan khaki
  `),
  material: words(`
    wooden metal steel aluminium plastic glass ceramic porcelain leather cotton wool linen silk denim
    velvet bamboo cork rubber paper cardboard stone marble granite concrete copper brass
  `),
  adjective: words(`
    small large tiny huge old new vintage modern broken cracked chipped scratched dented shiny dusty
    clean dirty wet dry heavy light cheap expensive fragile sturdy comfortable uncomfortable noisy quiet
    slow fast reliable unreliable flaky stable unstable urgent important minor major critical trivial
    obvious subtle strange unusual familiar favourite spare backup temporary permanent missing lost
    borrowed rented leased shared private public internal external legacy deprecated experimental
    beta stale fresh warm cold hot spicy sweet sour bitter salty bland crispy soggy tender tough
    organic local imported handmade homemade custom standard premium basic advanced detailed rough
    brief lengthy complicated simple messy tidy crowded empty busy calm early late overdue upcoming
    recent annual weekly daily monthly quarterly nightly hourly
  `),
  emotion: words(`
    happy glad delighted thrilled excited relieved grateful proud calm content hopeful optimistic
    curious amused surprised confused uncertain nervous anxious worried stressed overwhelmed tired
    exhausted bored frustrated annoyed irritated angry furious upset sad disappointed lonely embarrassed
    guilty jealous impatient sceptical cautious determined motivated confident inspired nostalgic
  `),
  verbPair: words(`
    move:moved fix:fixed break:broke lose:lost find:found buy:bought sell:sold order:ordered cancel:cancelled
    book:booked reschedule:rescheduled postpone:postponed confirm:confirmed approve:approved reject:rejected
    deploy:deployed roll_back:rolled_back merge:merged revert:reverted refactor:refactored review:reviewed
    test:tested benchmark:benchmarked profile:profiled debug:debugged investigate:investigated
    restart:restarted upgrade:upgraded downgrade:downgraded install:installed remove:removed
    migrate:migrated archive:archived delete:deleted restore:restored rename:renamed update:updated
    configure:configured document:documented share:shared send:sent receive:received forward:forwarded
    sign:signed pay:paid refund:refunded invoice:invoiced borrow:borrowed lend:lent return:returned
    pack:packed unpack:unpacked clean:cleaned repair:repaired replace:replaced paint:painted cook:cooked
    bake:baked taste:tasted recommend:recommended try:tried visit:visited call:called email:emailed
    text:texted meet:met interview:interviewed hire:hired onboard:onboarded promote:promoted
    train:trained teach:taught learn:learned plan:planned organise:organised host:hosted attend:attended
    skip:skipped join:joined leave:left start:started finish:finished pause:paused resume:resumed
    schedule:scheduled prepare:prepared draft:drafted publish:published present:presented
    discuss:discussed mention:mentioned promise:promised forget:forgot remember:remembered notice:noticed
    report:reported escalate:escalated assign:assigned close:closed reopen:reopened label:labelled
    measure:measured calibrate:calibrated charge:charged grab:grabbed place:placed drop:dropped
    pick_up:picked_up put_away:put_away hide:hid store:stored water:watered feed:fed walk:walked
    adopt:adopted rescue:rescued drive:drove ride:rode fly:flew land:landed miss:missed catch:caught
    rent:rented lease:leased renew:renewed extend:extended negotiate:negotiated estimate:estimated
    budget:budgeted spend:spent save:saved invest:invested withdraw:withdrew deposit:deposited
    transfer:transferred split:split track:tracked log:logged monitor:monitored alert:alerted
    page:paged silence:silenced acknowledge:acknowledged resolve:resolved summarise:summarised
    translate:translated write:wrote read:read rewrite:rewrote sketch:sketched prototype:prototyped
    ship:shipped launch:launched demo:demoed pitch:pitched celebrate:celebrated complain:complained
    apologise:apologised thank:thanked congratulate:congratulated ask:asked answer:answered
    explain:explained suggest:suggested decide:decided choose:chose prefer:preferred avoid:avoided
  `).map((pair) => pair.split(':')),
  weekday: words('Monday Tuesday Wednesday Thursday Friday Saturday Sunday'),
  month: words('January February March April May June July August September October November December'),
  timeOfDay: words(`
    early_morning morning mid_morning lunchtime noon early_afternoon afternoon late_afternoon evening
    late_evening night midnight
  `),
  relative: words(`
    yesterday today tomorrow last_week next_week this_week last_month next_month this_weekend
    last_weekend two_days_ago three_weeks_ago last_year next_quarter last_quarter the_other_day
    earlier_today later_tonight last_night this_morning
  `),
  health: words(`
    headache migraine back_pain knee_injury sprained_ankle cold flu fever cough allergy hay_fever
    asthma insomnia jet_lag blood_pressure cholesterol blood_test check_up physiotherapy vaccination
    booster prescription dentist_appointment eye_exam sleep_schedule step_count heart_rate diet
    vegetarian_diet vegan_diet gluten_intolerance lactose_intolerance nut_allergy shellfish_allergy
    hydration vitamin_D iron_levels recovery_plan stretching_routine
  `),
  finance: words(`
    budget rent mortgage loan interest_rate savings_account pension retirement_fund index_fund stocks
    bonds dividends tax_return tax_refund VAT expense_report reimbursement salary bonus raise payslip
    invoice receipt bank_transfer direct_debit standing_order credit_limit overdraft credit_score
    insurance_premium deductible utility_bill electricity_bill water_bill phone_bill internet_bill
    subscription membership_fee parking_fine donation gift tip deposit down_payment quote estimate
    price_increase discount coupon cashback refund late_fee exchange_rate
  `),
  travel: words(`
    flight layover connection delay cancellation window_seat aisle_seat exit_row upgrade lounge
    check_in baggage_allowance carry_on lost_luggage customs passport_control visa_application
    itinerary hotel_booking car_rental train_ticket sleeper_train ferry_crossing road_trip day_trip
    city_break beach_holiday ski_trip business_trip conference offsite team_retreat travel_insurance
    loyalty_points frequent_flyer_miles jet_lag time_zone currency adapter_plug roaming_plan
    airport_transfer taxi rideshare shuttle_bus metro_pass
  `),
  work: words(`
    standup retro sprint_planning roadmap quarterly_goals OKRs performance_review one_on_one
    all_hands town_hall offsite kickoff handover deadline milestone deliverable proposal spec design_doc
    RFC ADR budget_review headcount hiring_plan job_description interview_loop offer_letter onboarding
    training workshop demo_day launch release_notes customer_call sales_pitch renewal contract
    statement_of_work NDA procurement vendor supplier partnership escalation support_ticket bug_report
    feature_request user_feedback survey NPS_score churn retention revenue forecast board_meeting
    investor_update hackathon
  `),
  noun: words(`
    plan idea question answer problem solution reason result decision agreement disagreement opinion
    preference habit routine schedule appointment reminder note message email call meeting conversation
    discussion argument complaint compliment request favour offer promise apology excuse story joke
    rumour news update report summary draft version copy list checklist template guide manual policy
    rule process procedure workflow step task chore errand project goal target priority risk issue
    concern doubt worry fear hope wish dream memory moment experience event party dinner lunch breakfast
    brunch picnic barbecue wedding birthday anniversary graduation funeral holiday vacation weekend
    trip journey visit tour walk drive ride commute delivery package parcel shipment order purchase
    return exchange warranty repair appointment reservation booking ticket seat table room view
    neighbour landlord roommate colleague manager client customer vendor doctor teacher coach friend
    cousin sister brother mother father aunt uncle grandmother grandfather niece nephew daughter son
    partner wife husband kids family team group club community committee council
  `),
  tag: words(`
    travel work home health food family finance tech hobby pets shopping admin errands learning social
    fitness garden car kids music reading ops incident deploy customer planning personal
  `),
});
