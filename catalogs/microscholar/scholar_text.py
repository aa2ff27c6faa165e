# ruff: noqa: E501  (authored text: one record per line reads best)
"""Authored text for MicroScholar's catalog: topic banks for the indexed papers, the papers the
scenarios hinge on (targets, decoys, near misses), and the alert notifications.

Every hidden key phrase of a specials' abstract sits past the 160-character snippet cut;
generate.py checks that.
"""

from __future__ import annotations

# --- topics for ordinary indexed papers ---------------------------------------------------------
# Each topic: title patterns ({m} = method, {o} = object), methods, objects, abstract sentences
# ({m}/{o} filled the same way). Sentences are joined in order, one per slot.
TOPICS = {
    "graphs": {
        "interests": ["graph neural networks", "recommender systems"],
        "titles": ["{m} for {o}", "Scalable {m} on {o}", "Rethinking {m} for {o}", "On the Expressivity of {m} for {o}"],
        "methods": ["Message-Passing Networks", "Graph Transformers", "Spectral Graph Filters", "Hypergraph Convolutions"],
        "objects": ["Heterophilous Graphs", "Temporal Interaction Graphs", "Molecular Property Prediction", "Session-Based Recommendation"],
        "abstract": [
            "Learning on {o} remains difficult because neighbourhoods mix signal and noise at every hop.",
            "We study {m} and show that a simple normalisation of the aggregation step removes most of the oversmoothing seen in deep variants.",
            "On eight public benchmarks the resulting models match or exceed tuned baselines while using a third of the parameters.",
            "We release code and a reproducible evaluation protocol with fixed splits.",
        ],
    },
    "causal": {
        "interests": ["causal inference", "experimentation", "survival analysis"],
        "titles": ["{m} under {o}", "Robust {m} with {o}", "A Practical Guide to {m} with {o}"],
        "methods": ["Doubly Robust Estimation", "Synthetic Control", "Sequential Testing", "Variance Reduction"],
        "objects": ["Interference in Online Marketplaces", "Staggered Adoption", "Heavy-Tailed Metrics", "Right-Censored Outcomes"],
        "abstract": [
            "Online experiments increasingly face {o}, which biases naive difference-in-means estimates.",
            "We propose {m} adapted to this setting and derive finite-sample confidence intervals.",
            "Simulations calibrated on three years of production experiments show coverage close to nominal levels.",
            "A case study on a pricing test illustrates how conclusions change once the bias is corrected.",
        ],
    },
    "forecast": {
        "interests": ["time series forecasting"],
        "titles": ["{m} for {o}", "Probabilistic {m} of {o}", "When Does {m} Help {o}?"],
        "methods": ["Hierarchical Reconciliation", "Deep State-Space Models", "Quantile Regression Forests", "Patch-Based Transformers"],
        "objects": ["Retail Demand", "Electricity Load", "Intermittent Spare-Parts Demand", "Hospital Admissions"],
        "abstract": [
            "Forecasting {o} requires calibrated uncertainty as much as accurate point estimates.",
            "We compare {m} against classical exponential smoothing on eleven datasets with a rolling-origin protocol.",
            "Gains are largest at long horizons and vanish for short, noisy series, where simple baselines remain hard to beat.",
            "We discuss what these results mean for practitioners choosing a forecasting stack.",
        ],
    },
    "speech": {
        "interests": ["speech recognition", "multilingual NLP", "computational linguistics"],
        "titles": ["{m} for {o}", "Low-Resource {m} for {o}", "Benchmarking {m} on {o}"],
        "methods": ["Self-Supervised Acoustic Models", "Cross-Lingual Transfer", "Streaming Transducers", "Code-Switching Models"],
        "objects": ["Accented English", "Swahili Broadcast News", "Child Speech", "Conversational Telephone Speech"],
        "abstract": [
            "Recognition accuracy on {o} lags far behind read speech in high-resource languages.",
            "We adapt {m} with a small amount of transcribed audio and a larger pool of untranscribed recordings.",
            "Word error rates drop by up to a fifth relative to a strong multilingual baseline.",
            "An error analysis shows that the remaining mistakes concentrate on named entities and disfluencies.",
        ],
    },
    "vision": {
        "interests": ["computer vision", "medical imaging"],
        "titles": ["{m} for {o}", "Label-Efficient {m} for {o}", "Towards Reliable {m} in {o}"],
        "methods": ["Masked Autoencoders", "Test-Time Adaptation", "Prototype Networks", "Uncertainty-Aware Segmentation"],
        "objects": ["Chest Radiographs", "Aerial Crop Monitoring", "Histopathology Slides", "Retail Shelf Images"],
        "abstract": [
            "Annotating {o} is slow and expensive, so labelled sets stay small.",
            "We investigate {m} and measure how performance degrades under shifts between acquisition sites.",
            "With one tenth of the labels, our approach recovers most of the fully supervised accuracy.",
            "Calibration plots show that the models know when they are likely to be wrong.",
        ],
    },
    "rl": {
        "interests": ["reinforcement learning", "motion planning", "robot learning"],
        "titles": ["{m} for {o}", "Sample-Efficient {m} for {o}", "Offline {m} for {o}"],
        "methods": ["Model-Based Policy Optimisation", "Hierarchical Options", "Conservative Q-Learning", "Trajectory Optimisation"],
        "objects": ["Warehouse Picking", "Quadrotor Racing", "Traffic Signal Control", "Kitchen Rearrangement"],
        "abstract": [
            "Policies for {o} are usually trained in simulation and transfer poorly.",
            "We present {m} that reuses logged experience and plans over a learned latent model.",
            "In hardware trials the method needs an order of magnitude fewer interactions than model-free baselines.",
            "Ablations isolate the contribution of each component.",
        ],
    },
    "retrieval": {
        "interests": ["information retrieval", "databases"],
        "titles": ["{m} for {o}", "Efficient {m} over {o}", "Revisiting {m} for {o}"],
        "methods": ["Learned Sparse Retrieval", "Late-Interaction Ranking", "Query Rewriting", "Approximate Nearest Neighbour Indexes"],
        "objects": ["Enterprise Search", "Scientific Literature", "Product Catalogues", "Legal Case Law"],
        "abstract": [
            "Search over {o} must balance latency, index size and relevance.",
            "We revisit {m} and show that careful pruning keeps quality while halving query cost.",
            "Experiments on four test collections confirm the trade-off holds across domains.",
            "We also report energy use, which prior work rarely measures.",
        ],
    },
    "hci": {
        "interests": ["human-computer interaction", "accessibility", "information visualization", "product analytics"],
        "titles": ["{m} in {o}", "Understanding {m} in {o}", "Designing for {m} in {o}"],
        "methods": ["Onboarding Friction", "Screen-Reader Navigation", "Dashboard Literacy", "Notification Fatigue"],
        "objects": ["Small-Business Software", "Public Health Dashboards", "Mobile Banking", "Collaborative Editors"],
        "abstract": [
            "We report a mixed-methods study of {m} in {o} with 24 interviews and a survey of 410 users.",
            "Participants described workarounds that product analytics alone would not have revealed.",
            "We distil six design implications and validate two of them in a field deployment.",
            "The study materials are available for replication.",
        ],
    },
    "fairness": {
        "interests": ["fairness in machine learning", "privacy"],
        "titles": ["{m} for {o}", "Auditing {o} with {m}", "The Cost of {m} in {o}"],
        "methods": ["Counterfactual Fairness", "Differential Privacy", "Group Calibration", "Federated Auditing"],
        "objects": ["Credit Scoring", "Hiring Pipelines", "Clinical Risk Scores", "Content Moderation"],
        "abstract": [
            "Deployed models for {o} are audited rarely and inconsistently.",
            "We formalise {m} for this setting and give an estimator that needs only aggregate statistics.",
            "On two public datasets the audit finds disparities that standard accuracy reports hide.",
            "We close with recommendations for regulators and practitioners.",
        ],
    },
    "systems": {
        "interests": ["compilers", "software testing"],
        "titles": ["{m} for {o}", "Fast {m} for {o}", "Lessons from {m} in {o}"],
        "methods": ["Property-Based Testing", "Incremental Compilation", "Fuzzing with Grammars", "Flaky Test Detection"],
        "objects": ["Data Pipelines", "Embedded Firmware", "Smart Contracts", "Continuous Integration"],
        "abstract": [
            "Bugs in {o} are costly because they surface far from their cause.",
            "We apply {m} at scale and report on two years of use inside a large engineering organisation.",
            "The approach found 312 previously unknown defects, 41 of them security relevant.",
            "We describe the engineering needed to keep false alarms low.",
        ],
    },
}

VENUES = ["NeurIPS", "ICML", "ICLR", "KDD", "WWW", "CHI", "ACL", "EMNLP", "Interspeech", "CVPR", "MICCAI",
          "ICRA", "IROS", "CoRL", "SIGIR", "VLDB", "FAccT", "ICSE", "PLDI", "AISTATS", "Journal of Machine Learning Research",
          "Transactions on Graph Learning", "arXiv preprint"]

OUTSIDE_FIRST = ["Mira", "Tomás", "Hana", "Jonas", "Ines", "Ravi", "Sofia", "Kenji", "Amara", "Felix", "Leila", "Pavel",
                 "Nadia", "Ola", "Marco", "Yuki", "Sanjay", "Elena", "Idris", "Greta"]
OUTSIDE_LAST = ["Lindqvist", "Okafor", "Brandt", "Sato", "Ferreira", "Novak", "Haddad", "Kim", "Duarte", "Petrov",
                "Moreau", "Nwosu", "Castell", "Iqbal", "Romano", "Falk", "Bianchi", "Ansah", "Varga", "Lund"]

# --- the papers scenarios hinge on ---------------------------------------------------------------
# key: (title, authors as persona ids or outsider names, venue, year, abstract, cited_by, versions,
#       age_minutes, role, note)
SPECIALS = [
    # save_phrase: "downstream tasks"
    ("dt_target", "Contrastive Pretraining of Tabular Encoders with Column-Aware Augmentations",
     ["p015", "Mira Lindqvist", "p027"], "ICLR", 2024,
     "Tabular data lacks the natural augmentations that made contrastive learning work for images. We propose "
     "column-aware corruptions that respect feature types and correlations. Encoders pretrained this way transfer "
     "to a wide range of downstream tasks, including churn prediction and fraud detection, and beat gradient "
     "boosting when labels are scarce.", 12, 3, 0, "target", "'downstream tasks' in the abstract past the snippet"),
    ("dt_title", "Evaluating Pretrained Encoders on Downstream Tasks: A Critical Look",
     ["Jonas Brandt", "p075"], "TMLR", 2023,
     "Benchmarks for representation learning report averages that hide large differences between applications. "
     "We re-run twelve published encoders under one protocol and find that rankings flip depending on the probe, "
     "the label budget and the metric, and that most reported gains sit within seed variance.", 88, 4, 9000,
     "decoy", "'downstream tasks' only in the title"),
    ("dt_title2", "Which Downstream Tasks Benefit from Multilingual Pretraining?",
     ["p090", "Hana Sato"], "ACL", 2024,
     "Multilingual pretraining is assumed to help every language. We test this across 31 languages and 9 "
     "application families. Structured prediction benefits most, while sentence classification in high-resource "
     "languages gains little; we relate the gap to vocabulary overlap and script.", 7, 2, 0,
     "decoy", "'downstream tasks' in the title, not the abstract"),
    ("dt_near", "Self-Supervised Sensor Embeddings for Industrial Monitoring",
     ["p036", "Ravi Iqbal"], "KDD", 2024,
     "Industrial plants log thousands of sensor channels but label only a handful of faults. We learn embeddings "
     "from unlabelled streams with a masked reconstruction objective. The embeddings help on downstream evaluation "
     "tasks such as fault detection and remaining-useful-life estimation with few labels.", 3, 1, 0,
     "decoy", "near phrase 'downstream evaluation tasks'"),
    ("dt_trailing", "Frozen Speech Encoders as General Audio Feature Extractors",
     ["p054", "Kenji Kim"], "Interspeech", 2024,
     "Speech encoders trained on thousands of hours of audio capture more than phonetics. We freeze four public "
     "encoders and probe them on environmental sound, music tagging and speaker emotion. Middle layers transfer best "
     "to non-speech downstream tasks, and a learned layer mix closes most of the gap to fine-tuning.", 5, 2, 0,
     "trailing", "'downstream tasks' in the abstract, after the target"),
    # abstract_save_more: "unstructured environments"
    ("ue_saved", "Terrain-Aware Locomotion Policies from Proprioception Alone",
     ["p064", "p084", "Tomás Ferreira"], "CoRL", 2023,
     "Legged robots must react to terrain they cannot see. We train locomotion policies that infer terrain "
     "properties from joint encoders and an inertial unit alone. The policies walk through mud, snow and rubble, "
     "keeping balance in unstructured environments where vision fails.", 143, 5, 40000,
     "target", "already saved: 'unstructured environments' in the abstract"),
    ("ue_title", "Navigation in Unstructured Environments: A Survey of Benchmarks",
     ["Ines Duarte", "p084"], "IROS", 2022,
     "Field robots are evaluated on a patchwork of datasets and simulators. We catalogue 46 benchmarks, compare "
     "their sensing modalities, terrain diversity and metrics, and identify gaps, especially for long-horizon "
     "missions and for failures that only show up after hours of operation.", 61, 3, 60000,
     "decoy", "'unstructured environments' only in the title"),
    ("ue_title2", "Mapping Unstructured Environments with Sparse Lidar",
     ["Felix Falk", "Pavel Petrov"], "ICRA", 2024,
     "Dense lidar is expensive and heavy. We reconstruct occupancy maps from a sparse spinning sensor by learning "
     "a completion prior from simulation; the maps support planning at walking speed and degrade gracefully when "
     "the sensor is partly occluded by dust or vegetation.", 4, 1, 0,
     "decoy", "'unstructured environments' in the title, not the abstract"),
    ("ue_near", "Learning Legged Recovery Behaviours in Simulation",
     ["Leila Haddad", "p064"], "CoRL", 2024,
     "Falls are rare in training and common in deployment. We generate a curriculum of perturbations in simulation "
     "and learn recovery behaviours that transfer zero-shot to hardware. The robot stands back up on slopes and in "
     "unstructured outdoor environments, but struggles on ice.", 2, 1, 0,
     "decoy", "near phrase 'unstructured outdoor environments'"),
    ("ue_first", "Uncertainty-Aware Traversability Estimation for Field Robots",
     ["p084", "Sofia Romano"], "RSS", 2024,
     "Whether a patch of ground can be crossed depends on the robot, the weather and the ground itself. We learn "
     "traversability from the robot's own experience with a probabilistic model. Planning with its uncertainty "
     "keeps the robot safe in unstructured environments such as forests and construction sites.", 6, 2, 0,
     "target", "new: 'unstructured environments' in the abstract (1 of 2)"),
    ("ue_second", "Language-Conditioned Mobile Manipulation at Home",
     ["p093", "p013", "Marco Bianchi"], "CoRL", 2024,
     "Household robots should follow instructions such as 'put the mugs from the table into the sink'. We combine a "
     "vision-language planner with learned skills and a memory of object locations. The system completes 71% of "
     "instructions in unstructured environments like real apartments, compared with 38% for the best baseline.",
     9, 2, 0, "target", "new: 'unstructured environments' in the abstract (2 of 2)"),
    ("ue_trailing", "Self-Supervised Terrain Classification from Footstep Sounds",
     ["Ola Nwosu", "p064"], "ICRA", 2024,
     "Sound carries information about the ground a robot walks on. We record footsteps of a quadruped on nine "
     "surface types and learn a classifier without manual labels, using the robot's slip estimates as weak "
     "supervision. The classifier improves gait selection in unstructured environments at night.", 1, 1, 0,
     "trailing", "'unstructured environments' in the abstract, after the target"),
    # save_by_author: Renée Jackson (p013) vs Darnell Jackson (p038)
    ("rj_pre1", "Shared Autonomy for Assistive Feeding Robots", ["p013", "Amara Ansah"], "HRI", 2022,
     "Feeding assistance requires robots to adapt to each user's preferences. We blend user input with an "
     "autonomous policy and study the trade-off in a study with 14 participants.", 57, 3, 70000, "filler",
     "preloaded paper by Renée Jackson"),
    ("dj_pre1", "Sampling-Based Motion Planning with Learned Heuristics", ["p038", "p064"], "ICRA", 2021,
     "Sampling-based planners waste samples in open space. We learn a sampling distribution from past plans and "
     "show faster convergence on manipulators with up to 14 joints.", 312, 6, 110000, "decoy",
     "preloaded paper by Darnell Jackson"),
    ("dj_pre2", "Legible Robot Motion in Shared Workspaces", ["p038", "p013", "Yuki Sato"], "HRI", 2020,
     "People read intent from motion. We generate arm trajectories that make the robot's goal clear early and "
     "evaluate legibility with 60 observers.", 420, 5, 150000, "filler",
     "preloaded paper by both Jacksons"),
    ("rj_new1", "Learning Handover Timing from Human Gaze", ["p013", "Greta Lund"], "HRI", 2024,
     "Robot-to-human handovers feel awkward when the robot releases too early or too late. We predict the "
     "receiver's readiness from gaze and hand motion and adapt release timing online.", 0, 1, 0, "target",
     "new paper by Renée Jackson (1 of 3)"),
    ("dj_new1", "Kinodynamic Planning for Mobile Manipulators", ["p038", "Elena Castell"], "IROS", 2024,
     "Mobile manipulators must coordinate base and arm under torque limits. We extend kinodynamic RRT with a "
     "whole-body steering function.", 0, 1, 0, "decoy", "new paper by Darnell Jackson (same surname)"),
    ("rj_new2", "Explaining Robot Failures to Non-Expert Users", ["p093", "p013"], "CHI", 2024,
     "When a robot fails, users want to know why. We compare three explanation styles in a home study and find "
     "that counterfactual explanations best restore trust.", 0, 1, 0, "target",
     "new paper by Renée Jackson, second author (2 of 3)"),
    ("dj_new2", "Collision-Aware Trajectory Optimisation in Crowds", ["Idris Okafor", "p038"], "ICRA", 2024,
     "Navigating dense crowds needs plans that anticipate pedestrians. We optimise trajectories against "
     "predicted occupancy with chance constraints.", 0, 1, 0, "decoy", "new paper by Darnell Jackson"),
    ("rj_new3", "Personalised Assistance Levels for Robotic Rehabilitation", ["p013", "Nadia Varga", "p054"],
     "RO-MAN", 2024,
     "Rehabilitation robots should assist only as much as needed. We learn each patient's assistance profile from "
     "session data and adapt it between exercises.", 0, 1, 0, "target", "new paper by Renée Jackson (3 of 3)"),
    ("rj_new4", "A Dataset of Everyday Human-Robot Handovers", ["Greta Lund", "p013"], "RO-MAN", 2024,
     "We release 2,300 recorded handovers between people and a mobile manipulator in homes and offices.",
     0, 1, 0, "trailing", "new paper by Renée Jackson, after the target (4th)"),
    ("dj_new3", "Certified Motion Planning under Sensor Noise", ["p038", "Sanjay Kim"], "RSS", 2024,
     "Plans must stay safe when perception is noisy. We certify collision freedom under bounded sensor error.",
     0, 1, 0, "decoy", "new paper by Darnell Jackson, after the target"),
    # cite_title
    ("cite_target", "Tactile Servoing for Deformable Object Manipulation", ["p064", "Hana Sato", "Felix Falk"],
     "CoRL", 2024,
     "Cloth, cables and dough change shape when touched. We close the loop on tactile images from a gel sensor and "
     "learn a servoing controller that keeps contact features at desired values while the object deforms.",
     0, 1, 0, "target", "the exact title the task names"),
    ("cite_decoy_old", "Tactile Servoing for Rigid Object Manipulation", ["Felix Falk", "Jonas Brandt"], "ICRA", 2019,
     "Classical visual servoing assumes rigid objects. We adapt it to tactile feedback for in-hand pose control "
     "of rigid parts.", 198, 4, 200000, "decoy", "same title except Rigid for Deformable"),
    ("cite_decoy_new", "Visual Servoing for Deformable Object Manipulation", ["Pavel Petrov", "p084"], "IROS", 2024,
     "We track deformable objects with a learned keypoint model and servo a robot arm on the keypoints.",
     0, 1, 0, "decoy", "same title except Visual for Tactile"),
    ("cite_decoy_survey", "Deformable Object Manipulation: A Survey of Tactile Servoing Methods",
     ["Ines Duarte", "Sofia Romano"], "IJRR", 2024,
     "We survey tactile sensing and control for manipulating objects that change shape.", 0, 2, 0, "decoy",
     "the same words rearranged into a survey title"),
    # title_appears / title_absent_noop
    ("grasp_target", "Learning to Grasp in Clutter from Few Demonstrations", ["p064", "Kenji Kim"], "CoRL", 2024,
     "Grasping objects from dense piles is a core warehouse skill. We learn from ten demonstrations per object "
     "family with an equivariant policy.", 0, 1, 0, "target", "the exact title the task names"),
    ("grasp_decoy1", "Learning to Grasp in Clutter from Dense Rewards", ["Marco Bianchi", "Idris Okafor"], "ICRA", 2024,
     "We shape rewards for grasping in clutter with object-centric progress estimates.", 0, 1, 0, "decoy",
     "title differs in its last words"),
    ("grasp_decoy2", "Learning to Push in Clutter from Few Demonstrations", ["Kenji Kim", "Tomás Ferreira"], "IROS",
     2024, "Pushing rearranges clutter before a grasp. We learn pushing primitives from a few demonstrations.",
     0, 1, 0, "decoy", "Push instead of Grasp"),
    ("grasp_old", "Grasping in Clutter with Learned Affordances", ["p064", "Ravi Iqbal"], "ICRA", 2020,
     "We predict grasp affordances for every pixel of a depth image of a cluttered bin.", 265, 4, 180000, "filler",
     "an older clutter paper"),
    # the self user's own papers (My profile)
    ("me_1", "Measuring Feature Adoption without Event Tracking", ["p000", "p010"], "CHI Extended Abstracts", 2021,
     "Product teams often lack instrumentation for new features. We estimate adoption from support tickets and "
     "release notes, and compare the estimates with event logs where both exist.", 21, 2, 220000, "filler",
     "by the self user"),
    ("me_2", "Roadmap Decisions under Uncertain Feedback", ["p010", "p000", "p004"], "CSCW", 2022,
     "We interview 18 product managers about how they weigh qualitative feedback against usage data.", 11, 1,
     160000, "filler", "by the self user"),
    ("me_3", "A Field Guide to Notebook-Based Product Analytics", ["p000"], "arXiv preprint", 2023,
     "We describe practices for analysing product data in shared notebooks.", 6, 1, 90000, "filler",
     "by the self user"),
]

# --- alerts ------------------------------------------------------------------------------------
# key: (kind, title, description, paper key or None, read, age_minutes, role, note)
ALERTS = [
    ("a_gnn", "keyword", "New results for your alert", "Topic: graph neural networks. 3 new articles this week.", None, True, 4000, "filler", ""),
    ("a_ci", "keyword", "New results for your alert", "Topic: causal inference. 2 new articles this week.", None, True, 3000, "filler", ""),
    ("a_cite1", "citation", "New citations to your articles", "Your article 'Measuring Feature Adoption without Event Tracking' was cited by 1 new article.", "me_1", False, 900, "filler", ""),
    ("a_np1", "new_paper", "New article by an author you follow", "Lin Nakamura published a new article.", "grasp_old", True, 5000, "filler", ""),
    ("a_hci", "keyword", "New results for your alert", "Topic: human-computer interaction. 5 new articles this week.", None, False, 600, "filler", ""),
    ("a_cite2", "citation", "New citations to your articles", "Your article 'Roadmap Decisions under Uncertain Feedback' was cited by 2 new articles.", "me_2", True, 7000, "filler", ""),
    ("a_pa", "keyword", "New results for your alert", "Topic: product analytics. 1 new article this week.", None, True, 8000, "filler", ""),
    ("a_ir", "keyword", "New results for your alert", "Topic: information retrieval. 4 new articles this week.", None, True, 9000, "filler", ""),
    # timeline alerts
    ("a_llm", "keyword", "New results for your alert", "Topic: large language models. 4 new articles, including work on evaluation and alignment.", None, False, 0, "target", "topic 'large language models'"),
    ("a_lu", "keyword", "New results for your alert", "Topic: language understanding. 3 new articles this week.", None, False, 0, "decoy", "near topic 'language understanding'"),
    ("a_vlm", "keyword", "New results for your alert", "Topic: vision-language models. 2 new articles this week.", None, False, 0, "decoy", "near topic 'vision-language models'"),
    ("a_slm", "keyword", "New results for your alert", "Topic: small language models on device. 2 new articles this week.", None, False, 0, "decoy", "near topic 'small language models'"),
    ("a_fusion", "keyword", "New results for your alert", "Topic: nuclear fusion plasma control. 1 new article this week.", None, False, 0, "decoy", "fusion, but not cold fusion"),
    ("a_rl", "keyword", "New results for your alert", "Topic: reinforcement learning. 6 new articles this week.", None, False, 0, "filler", ""),
    ("a_ts", "keyword", "New results for your alert", "Topic: time series forecasting. 2 new articles this week.", None, False, 0, "filler", ""),
    ("a_cite3", "citation", "New citations to your articles", "Your article 'A Field Guide to Notebook-Based Product Analytics' was cited by 1 new article.", "me_3", False, 0, "filler", ""),
    ("a_np2", "new_paper", "New article by an author you follow", "Renée Jackson published a new article.", None, False, 0, "filler", ""),
    ("a_acc", "keyword", "New results for your alert", "Topic: accessibility. 2 new articles this week.", None, False, 0, "filler", ""),
    ("a_cite4", "citation", "New citations to your articles", "Your article 'Measuring Feature Adoption without Event Tracking' was cited by 2 new articles.", "me_1", False, 0, "filler", ""),
    ("a_np3", "new_paper", "New article by an author you follow", "Priya Shah published a new article.", None, False, 0, "filler", ""),
    ("a_vis", "keyword", "New results for your alert", "Topic: information visualization. 1 new article this week.", None, False, 0, "filler", ""),
    ("a_sr", "keyword", "New results for your alert", "Topic: speech recognition. 3 new articles this week.", None, False, 0, "filler", ""),
    ("a_exp", "keyword", "New results for your alert", "Topic: experimentation. 2 new articles this week.", None, False, 0, "filler", ""),
    ("a_fair", "keyword", "New results for your alert", "Topic: fairness in machine learning. 3 new articles this week.", None, False, 0, "filler", ""),
    ("a_cite5", "citation", "New citations to your articles", "Your article 'Roadmap Decisions under Uncertain Feedback' was cited by 1 new article.", "me_2", False, 0, "filler", ""),
    ("a_rec", "keyword", "New results for your alert", "Topic: recommender systems. 4 new articles this week.", None, False, 0, "filler", ""),
    ("a_mi", "keyword", "New results for your alert", "Topic: medical imaging. 2 new articles this week.", None, False, 0, "filler", ""),
    ("a_db", "keyword", "New results for your alert", "Topic: databases. 1 new article this week.", None, False, 0, "filler", ""),
]
